package dev.lake.query.vector;

/** The operator of an {@link Arith}: {@code + - * /}. */
public enum Arithmetic {
  PLUS('+'),
  MINUS('-'),
  TIMES('*'),
  DIVIDE('/');

  private final char symbol;

  Arithmetic(char symbol) {
    this.symbol = symbol;
  }

  @Override
  public String toString() {
    return String.valueOf(symbol);
  }
}
