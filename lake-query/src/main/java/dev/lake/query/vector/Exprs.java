package dev.lake.query.vector;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The expressions the vectorized executor evaluates, as the planner builds them (the planner's compiler turns its
 * row expressions into these; the executor's classes stay package-private). Shapes: a column's {@link Kind} and
 * decimal scale, {@link #shape(Kind, int)}.
 */
public final class Exprs {
  private Exprs() {}

  /** The shape (kind and decimal scale) of a column, holding no values. */
  public static Col shape(Kind kind, int scale) {
    return new Col(kind, 0, scale);
  }

  /** Input column {@code index} of the given shape. */
  public static Expr input(int index, Col shape) {
    return new Expr.Input(index, shape.kind, shape.scale);
  }

  /** A string constant (null: SQL NULL). */
  public static Expr stringLiteral(String text) {
    Col value = new Col(Kind.STRING, 1, 0);
    value.strings = StringSource.of(new byte[][] {text == null ? null : text.getBytes(StandardCharsets.UTF_8)});
    return literal(value, text == null);
  }

  /** A floating-point constant (null: SQL NULL). */
  public static Expr doubleLiteral(Double number) {
    Col value = Col.doubles(1);
    value.doubles[0] = number == null ? 0 : number;
    return literal(value, number == null);
  }

  /** A boolean constant (null: SQL NULL). */
  public static Expr boolLiteral(Boolean truth) {
    Col value = Col.bools(1);
    value.longs[0] = Boolean.TRUE.equals(truth) ? 1 : 0;
    return literal(value, truth == null);
  }

  /** A DATE constant as days since the epoch (null: SQL NULL). */
  public static Expr dateLiteral(Integer days) {
    Col value = Col.longs(1, 0);
    value.longs[0] = days == null ? 0 : days;
    return literal(value, days == null);
  }

  /** An integer or decimal constant held at {@code scale} (null: SQL NULL). */
  public static Expr numberLiteral(BigDecimal number, int scale) {
    Col value = Col.longs(1, scale);
    if (number != null) {
      DecimalMath.store(value, 0, number);
    }
    return literal(value, number == null);
  }

  /** The integer 0 (the left operand of a negation). */
  public static Expr zero() {
    return new Expr.Literal(Col.longs(1, 0));
  }

  private static Expr literal(Col value, boolean isNull) {
    if (isNull) {
      value.setNull(0);
    }
    return new Expr.Literal(value);
  }

  /** {@code left op right} with a result of the given kind and scale ({@code decimal}: a DECIMAL result). */
  public static Expr arith(Arithmetic op, Expr left, Expr right, Kind kind, int scale, boolean decimal) {
    return new Arith(op, left, right, kind, scale, decimal);
  }

  public static Expr compare(Comparison op, Expr left, Expr right) {
    return new Compare(op, left, right);
  }

  /**
   * AND ({@code and}) or OR of the operands; an OR of equalities of one computed operand with constants computes
   * the operand once ({@link Logic.SharedOperand}).
   */
  public static Expr connective(boolean and, List<Expr> operands) {
    Expr shared = and ? null : Logic.SharedOperand.of(operands);
    return shared != null ? shared : new Logic.Connective(and, operands);
  }

  public static Expr not(Expr operand) {
    return new Logic.Not(operand);
  }

  /** IS NULL, or IS NOT NULL when {@code negated}. */
  public static Expr nullTest(Expr operand, boolean negated) {
    return new Logic.NullTest(operand, negated);
  }

  /** IS TRUE / IS FALSE ({@code value}), or IS NOT ... when {@code negated}. */
  public static Expr truthTest(Expr operand, boolean value, boolean negated) {
    return new Logic.TruthTest(operand, value, negated);
  }

  /** A numeric CAST to the given kind and scale (an integer type is LONG of scale 0). */
  public static Expr cast(Expr operand, Kind kind, int scale) {
    return new Cast(operand, kind, scale);
  }

  /** CASE WHEN conditions[i] THEN values[i] ... ELSE otherwise END. */
  public static Expr caseOf(List<Expr> conditions, List<Expr> values, Expr otherwise, Kind kind, int scale) {
    return new Case(conditions, values, otherwise, kind, scale);
  }

  /** EXTRACT(YEAR) ({@code year}) or EXTRACT(MONTH) of a DATE. */
  public static Expr datePart(Expr date, boolean year) {
    return new DatePart(date, year);
  }

  /**
   * {@code SUBSTRING(input FROM start FOR length)} of a string with constant bounds ({@code length} -1: to the end;
   * never below -1: a negative length is the planner's to reject).
   */
  public static Expr substring(Expr input, int start, int length) {
    return new Substring(input, start, length);
  }

  /** {@code input LIKE pattern}, or null when the executor cannot match the pattern. */
  public static Expr like(Expr input, String pattern) {
    return input.kind() == Kind.STRING && pattern != null ? Like.of(input, pattern) : null;
  }
}
