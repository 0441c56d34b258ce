package dev.lake.query.vector;

/** The operator of a {@link Compare}: {@code = <> < <= > >=}. */
public enum Comparison {
  EQUAL("="),
  NOT_EQUAL("<>"),
  LESS("<"),
  LESS_OR_EQUAL("<="),
  GREATER(">"),
  GREATER_OR_EQUAL(">=");

  private final String symbol;

  Comparison(String symbol) {
    this.symbol = symbol;
  }

  /** Whether a comparison result {@code c} (negative, zero, positive) satisfies this operator. */
  boolean test(int c) {
    switch (this) {
      case EQUAL:
        return c == 0;
      case NOT_EQUAL:
        return c != 0;
      case LESS:
        return c < 0;
      case LESS_OR_EQUAL:
        return c <= 0;
      case GREATER:
        return c > 0;
      default:
        return c >= 0;
    }
  }

  @Override
  public String toString() {
    return symbol;
  }
}
