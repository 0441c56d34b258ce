package dev.lake.query.plan.enumerable;

/**
 * SUM of integers into a BIGINT that fails instead of wrapping: the aggregate {@link ExactRuntime} puts in place of
 * Calcite's SUM and SUM0 of BIGINT (Calcite's generated code calls these methods by name).
 */
public final class CheckedSum {
  public CheckedSum() {}

  public long init() {
    return 0L;
  }

  public long add(long sum, long value) {
    long result = sum + value;
    if (((sum ^ result) & (value ^ result)) < 0) {
      throw new dev.lake.query.model.InexactResultException("BIGINT overflow in SUM: the sum is beyond BIGINT's range"
          + " (-9223372036854775808 to 9223372036854775807); SUM(CAST(x AS DECIMAL(38, 0))) sums exactly");
    }
    return result;
  }

  public long merge(long a, long b) {
    return add(a, b);
  }

  public long result(long sum) {
    return sum;
  }
}
