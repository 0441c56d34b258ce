package dev.lake.query.vector;

/** The vectorized executor cannot run an expression or operator; the message says which (shown by EXPLAIN). */
public final class Unsupported extends Exception {
  public Unsupported(String reason) {
    super(reason, null, false, false);
  }
}
