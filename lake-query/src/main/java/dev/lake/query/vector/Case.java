package dev.lake.query.vector;

import java.util.List;

/**
 * CASE WHEN c1 THEN v1 ... ELSE e END. Each value is evaluated only on the rows its branch takes (a division in a
 * branch guarded against zero never sees the zero). The branches already have the result's kind and scale.
 */
record Case(List<Expr> conditions, List<Expr> values, Expr otherwise, Kind kind, int scale) implements Expr {
  @Override
  public Col eval(Batch batch) {
    int n = batch.size();
    Col out = kind == Kind.DOUBLE ? Col.doubles(n) : kind == Kind.STRING ? new Col(Kind.STRING, n, 0)
        : Col.longs(n, scale);
    byte[][] strings = kind == Kind.STRING ? new byte[n][] : null;
    int[] remaining = identity(n);
    int left = n;
    for (int b = 0; b <= conditions.size() && left > 0; b++) {
      Batch rows = batch.select(remaining, left);
      int[] taken;
      int takenCount;
      int[] rest;
      int restCount;
      if (b < conditions.size()) {
        Col condition = conditions.get(b).eval(rows);
        taken = new int[left];
        rest = new int[left];
        takenCount = 0;
        restCount = 0;
        for (int i = 0; i < left; i++) {
          if (condition.longs[i] == 1 && !condition.isNull(i)) {
            taken[takenCount++] = i;
          } else {
            rest[restCount++] = i;
          }
        }
      } else {
        taken = identity(left);
        takenCount = left;
        rest = new int[0];
        restCount = 0;
      }
      if (takenCount > 0) {
        Expr value = b < conditions.size() ? values.get(b) : otherwise;
        Col values = value.eval(rows.select(taken, takenCount));
        for (int i = 0; i < takenCount; i++) {
          put(out, strings, remaining[taken[i]], values, i);
        }
      }
      int[] next = new int[restCount];
      for (int i = 0; i < restCount; i++) {
        next[i] = remaining[rest[i]];
      }
      remaining = next;
      left = restCount;
    }
    if (strings != null) {
      out.strings = StringSource.of(strings);
    }
    return out;
  }

  private static void put(Col out, byte[][] strings, int at, Col from, int i) {
    if (from.isNull(i)) {
      out.setNull(at);
    } else if (out.kind == Kind.DOUBLE) {
      out.doubles[at] = from.asDouble(i);
    } else if (out.kind == Kind.STRING) {
      strings[at] = from.strings.bytes(i);
    } else if (from.isWide(i)) {
      out.setWide(at, from.wide[i]);
    } else {
      out.longs[at] = from.longs[i];
    }
  }

  private static int[] identity(int n) {
    int[] rows = new int[n];
    for (int i = 0; i < n; i++) {
      rows[i] = i;
    }
    return rows;
  }
}
