package dev.lake.query.vector;

/**
 * One bit per value of a range of integer keys, set for the values a join's build side holds: an exact membership
 * test (an eighth of a byte per value of the range) a probe row takes before anything else — a subtraction, a range
 * check and a bit test. Used by {@link JoinTable} for a directly addressed key and, in front of the hash table, for a
 * hashed key of a narrow enough range.
 */
final class PresenceBits {
  private final long[] bits;
  private final long min;
  private final long range;

  /** Bits for the values {@code min .. min + range - 1}, none set; {@code range} at most 2^31 * 64. */
  PresenceBits(long min, long range) {
    this.min = min;
    this.range = range;
    this.bits = new long[(int) ((range + 63) >>> 6)];
  }

  /** Marks {@code value}, which lies in the range. */
  void add(long value) {
    long offset = value - min;
    bits[(int) (offset >>> 6)] |= 1L << offset;
  }

  /** Whether {@code value} was added (a value outside the range never was). */
  boolean contains(long value) {
    long offset = value - min;
    return Long.compareUnsigned(offset, range) < 0 && (bits[(int) (offset >>> 6)] & (1L << offset)) != 0;
  }

  /** {@code value}'s offset in the range (for a value {@link #contains} accepted). */
  int offset(long value) {
    return (int) (value - min);
  }

  /** The heap the bits take. */
  long bytes() {
    return 8L * bits.length;
  }
}
