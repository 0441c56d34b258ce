package dev.lake.query.vector;

import java.util.List;

/** Boolean connectives with SQL's three-valued logic, and NULL tests. BOOL columns hold 0/1 in {@code longs}. */
final class Logic {
  private Logic() {}

  /** AND ({@code and} true) or OR of the operands. */
  record Connective(boolean and, List<Expr> operands) implements Expr.Bool {
    @Override
    public Col eval(Batch batch) {
      int n = batch.size();
      Col out = Col.bools(n);
      long dominant = and ? 0 : 1;
      java.util.Arrays.fill(out.longs, 1 - dominant);
      boolean[] unknown = new boolean[n];
      for (Expr operand : operands) {
        Col c = operand.eval(batch);
        for (int i = 0; i < n; i++) {
          if (c.isNull(i)) {
            unknown[i] = true;
          } else if (c.longs[i] == dominant) {
            out.longs[i] = dominant;
          }
        }
      }
      for (int i = 0; i < n; i++) {
        if (unknown[i] && out.longs[i] != dominant) {
          out.setNull(i);
        }
      }
      return out;
    }
  }

  /**
   * An OR of equalities of one computed operand with constants ({@code substring(c_phone FROM 1 FOR 2) IN ('13',
   * '31', ...)}, TPC-H Q22, which Calcite expands into one equality per value): {@code operand} is evaluated once per
   * batch, and {@code disjunction}, the same OR over column 0 of a batch holding only that value, tests it against
   * every constant — the same comparisons, so the same answer, NULLs included.
   */
  record SharedOperand(Expr operand, Expr disjunction, long[] packed) implements Expr.Bool {
    @Override
    public Col eval(Batch batch) {
      Col value = operand.eval(batch);
      if (packed != null) {
        return packedMembers(value, batch.size());
      }
      return disjunction.eval(Batch.of(new Col[] {value}, batch.size()));
    }

    /**
     * The OR of string equalities when every constant is a non-NULL string of at most
     * {@link StringSource#MAX_PACKED} bytes: each value packed as one long ({@link StringSource#inline}: its length and
     * bytes, -1 when longer) and looked up among the constants' packed codes — equal codes are equal bytes, the
     * comparison {@link Compare} makes; a NULL value is NULL, as each of its comparisons is.
     */
    private Col packedMembers(Col value, int n) {
      Col out = Col.bools(n);
      for (int i = 0; i < n; i++) {
        if (value.isNull(i)) {
          out.setNull(i);
          continue;
        }
        long code = value.strings.inline(i);
        boolean member = false;
        if (code >= 0) {
          for (long constant : packed) {
            if (constant == code) {
              member = true;
              break;
            }
          }
        }
        out.longs[i] = member ? 1 : 0;
      }
      return out;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof SharedOperand that && operand.equals(that.operand)
          && disjunction.equals(that.disjunction);
    }

    @Override
    public int hashCode() {
      return 31 * operand.hashCode() + disjunction.hashCode();
    }

    /**
     * {@code operands} of an OR as one {@link SharedOperand} when they are two or more equalities of the same
     * computed expression (not a plain column, which is read, not computed) with constants; otherwise null.
     */
    static Expr of(List<Expr> operands) {
      if (operands.size() < 2 || !(operands.get(0) instanceof Compare first)
          || first.left() instanceof Expr.Input || first.left() instanceof Expr.Literal) {
        return null;
      }
      Expr operand = first.left();
      Expr.Input value = new Expr.Input(0, operand.kind(), operand.scale());
      List<Expr> rewritten = new java.util.ArrayList<>(operands.size());
      long[] packed = operand.kind() == Kind.STRING ? new long[operands.size()] : null;
      for (Expr expr : operands) {
        if (!(expr instanceof Compare compare) || compare.op() != Comparison.EQUAL
            || !compare.left().equals(operand) || !(compare.right() instanceof Expr.Literal literal)) {
          return null;
        }
        if (packed != null) {
          Col constant = literal.value();
          long code = constant.isNull(0) ? -1 : StringSource.pack(constant.strings.bytes(0));
          if (code < 0) {
            packed = null; // a NULL or longer constant: the comparisons as written
          } else {
            packed[rewritten.size()] = code;
          }
        }
        rewritten.add(new Compare(Comparison.EQUAL, value, compare.right()));
      }
      return new SharedOperand(operand, new Connective(false, rewritten), packed);
    }
  }

  record Not(Expr operand) implements Expr.Bool {
    @Override
    public Col eval(Batch batch) {
      Col c = operand.eval(batch);
      Col out = Col.bools(batch.size());
      for (int i = 0; i < out.size; i++) {
        out.longs[i] = 1 - c.longs[i];
      }
      out.nulls = c.nulls;
      return out;
    }
  }

  /** IS NULL ({@code negated} false) or IS NOT NULL; never NULL itself. */
  record NullTest(Expr operand, boolean negated) implements Expr.Bool {
    @Override
    public Col eval(Batch batch) {
      Col c = operand.eval(batch);
      Col out = Col.bools(batch.size());
      for (int i = 0; i < out.size; i++) {
        out.longs[i] = c.isNull(i) != negated ? 1 : 0;
      }
      return out;
    }
  }

  /** IS TRUE ({@code value} true) or IS FALSE; negated: IS NOT TRUE / IS NOT FALSE. Never NULL. */
  record TruthTest(Expr operand, boolean value, boolean negated) implements Expr.Bool {
    @Override
    public Col eval(Batch batch) {
      Col c = operand.eval(batch);
      Col out = Col.bools(batch.size());
      for (int i = 0; i < out.size; i++) {
        boolean holds = !c.isNull(i) && (c.longs[i] == 1) == value;
        out.longs[i] = holds != negated ? 1 : 0;
      }
      return out;
    }
  }

  /** The positions of the rows where a BOOL column is true (neither false nor NULL). */
  static int[] trueRows(Col condition, int[] count) {
    int[] positions = new int[condition.size];
    int kept = 0;
    for (int i = 0; i < condition.size; i++) {
      if (condition.longs[i] == 1 && !condition.isNull(i)) {
        positions[kept++] = i;
      }
    }
    count[0] = kept;
    return positions;
  }
}
