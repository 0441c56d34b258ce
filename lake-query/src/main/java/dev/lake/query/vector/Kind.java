package dev.lake.query.vector;

/** How the vectorized executor holds a column's values. */
public enum Kind {
  /** Integers, DATE as days since the epoch, DECIMAL(p<=18) unscaled (wider values per row as BigDecimal). */
  LONG,
  /** DOUBLE, FLOAT, REAL. */
  DOUBLE,
  /** Character strings (UTF-8 bytes). */
  STRING,
  /** Predicates. */
  BOOL
}
