package dev.lake.query.vector;

/**
 * One aggregate function of a hash aggregate.
 *
 * @param argument the input column it reads, or -1 (COUNT(*))
 * @param kind the result's kind; {@code scale} its decimal scale
 * @param integer whether the result is an integer type (AVG of integers truncates)
 */
public record AggSpec(Function function, int argument, Kind kind, int scale, boolean integer) {
  public enum Function { COUNT, SUM, SUM0, MIN, MAX, AVG }

  public AggSpec {
    if (argument < 0 && function != Function.COUNT) {
      throw new IllegalArgumentException(function + " needs an argument");
    }
  }

  Accumulator newAccumulator(Kind input, int inputScale) {
    switch (function) {
      case COUNT:
        return new Accumulator.Count(argument < 0);
      case MIN:
      case MAX:
        return new Extreme(function == Function.MAX, input, inputScale);
      default:
        return input == Kind.DOUBLE ? new DoubleSum(this) : new Accumulator.LongSum(this, inputScale);
    }
  }
}
