package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A vectorized filter runs the conjuncts that cannot fail first, ranges before comparisons, so an OR that leads the
 * condition (TPC-H Q12's {@code l_shipmode IN ('MAIL', 'SHIP')}) is evaluated only on the rows a range kept; the
 * rows kept are those every conjunct is true for, NULLs dropped.
 */
class FilterTest {
  private final Random random = new Random(1212);

  @Test
  void conjunctsThatCannotFailRunFirstAndTheRowsKeptAreExact() {
    Expr mode = new Expr.Input(0, Kind.LONG, 0);
    Expr commit = new Expr.Input(1, Kind.LONG, 0);
    Expr receipt = new Expr.Input(2, Kind.LONG, 0);
    Expr shipmodeIn = new Logic.Connective(false, List.of(new Compare(Comparison.EQUAL, mode, literal(3)),
        new Compare(Comparison.EQUAL, mode, literal(5))));
    Expr commitBeforeReceipt = new Compare(Comparison.LESS, commit, receipt);
    Expr fromReceipt = new Compare(Comparison.GREATER_OR_EQUAL, receipt, literal(8_766));
    Expr toReceipt = new Compare(Comparison.LESS, receipt, literal(9_131));
    Op.Filter filter = new Op.Filter(List.of(shipmodeIn, commitBeforeReceipt, fromReceipt, toReceipt));

    assertThat(filter.conjuncts()).hasSize(3);
    assertThat(filter.conjuncts().get(0)).as("the receipt date's range first").isInstanceOf(Range.class);
    assertThat(filter.conjuncts().get(1)).isEqualTo(commitBeforeReceipt);
    assertThat(filter.conjuncts().get(2)).as("the OR last").isEqualTo(shipmodeIn);

    for (int round = 0; round < 20; round++) {
      int rows = 1 + random.nextInt(5_000);
      Col[] columns = {Col.longs(rows, 0), Col.longs(rows, 0), Col.longs(rows, 0)};
      for (int i = 0; i < rows; i++) {
        columns[0].longs[i] = random.nextInt(7);
        columns[1].longs[i] = 8_000 + random.nextInt(2_000);
        columns[2].longs[i] = columns[1].longs[i] + random.nextInt(60) - 30;
        for (Col column : columns) {
          if (random.nextInt(17) == 0) {
            column.setNull(i);
          }
        }
      }
      Batch kept = filter.apply(Batch.of(columns, rows));
      List<List<Long>> expected = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        boolean anyNull = columns[0].isNull(i) || columns[1].isNull(i) || columns[2].isNull(i);
        long m = columns[0].longs[i];
        long c = columns[1].longs[i];
        long r = columns[2].longs[i];
        if (!anyNull && (m == 3 || m == 5) && c < r && r >= 8_766 && r < 9_131) {
          expected.add(List.of(m, c, r));
        }
      }
      List<List<Long>> actual = new ArrayList<>();
      for (int i = 0; i < kept.size(); i++) {
        actual.add(List.of(kept.column(0).longs[i], kept.column(1).longs[i], kept.column(2).longs[i]));
      }
      assertThat(actual).as("round %d, %d rows", round, rows).isEqualTo(expected);
    }
  }

  @Test
  void conjunctsThatMayFailKeepTheirOrder() {
    Expr x = new Expr.Input(0, Kind.LONG, 0);
    Expr nonZero = new Compare(Comparison.NOT_EQUAL, x, literal(0));
    Expr first = new Logic.Connective(false, List.of(nonZero, new Compare(Comparison.EQUAL, x, literal(9))));
    Expr second = new Logic.Connective(true, List.of(nonZero, new Compare(Comparison.LESS, x, literal(4))));
    Op.Filter filter = new Op.Filter(List.of(first, second, nonZero));

    assertThat(filter.conjuncts()).containsExactly(nonZero, first, second);
  }

  @Test
  void anOrOfEqualitiesOfAComputedOperandComputesItOnceAndAnswersAsTheOr() {
    Expr phone = new Expr.Input(0, Kind.STRING, 0);
    Expr code = Exprs.substring(phone, 1, 2);
    List<Expr> equalities = new ArrayList<>();
    for (String value : new String[] {"13", "31", "23", "29", "30", "18", "17"}) {
      equalities.add(new Compare(Comparison.EQUAL, code, Exprs.stringLiteral(value)));
    }
    List<Expr> withNull = new ArrayList<>(equalities);
    withNull.add(new Compare(Comparison.EQUAL, code, Exprs.stringLiteral(null)));

    for (List<Expr> operands : List.of(equalities, withNull)) {
      Expr shared = Exprs.connective(false, operands);
      assertThat(shared).isInstanceOf(Logic.SharedOperand.class);
      // constants of at most 7 bytes are looked up as packed codes; a NULL constant keeps the comparisons
      assertThat(((Logic.SharedOperand) shared).packed() != null).isEqualTo(operands == equalities);
      Expr plain = new Logic.Connective(false, operands);
      for (int round = 0; round < 10; round++) {
        int rows = 1 + random.nextInt(3_000);
        byte[][] phones = new byte[rows][];
        for (int i = 0; i < rows; i++) {
          int kind = random.nextInt(20);
          String text = kind == 0 ? "" : kind == 1 ? "" : kind == 2 ? "1" : kind == 3 ? "é3-4"
              : (10 + random.nextInt(25)) + "-" + random.nextInt(1_000);
          phones[i] = text == null ? new byte[0] : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        Col column = new Col(Kind.STRING, rows, 0);
        column.strings = StringSource.of(phones);
        for (int i = 0; i < rows; i++) {
          if (random.nextInt(15) == 0) {
            column.setNull(i);
          }
        }
        Batch batch = Batch.of(new Col[] {column}, rows);
        Col expected = plain.eval(batch);
        Col actual = shared.eval(batch);
        for (int i = 0; i < rows; i++) {
          String what = "row " + i + " of round " + round + " (" + operands.size() + " values)";
          assertThat(actual.isNull(i)).as(what).isEqualTo(expected.isNull(i));
          if (!expected.isNull(i)) {
            assertThat(actual.longs[i]).as(what).isEqualTo(expected.longs[i]);
          }
        }
      }
    }
    // an OR of a plain column's equalities, or of anything else, stays as it is
    Expr onColumn = Exprs.connective(false, List.of(new Compare(Comparison.EQUAL, phone, Exprs.stringLiteral("a")),
        new Compare(Comparison.EQUAL, phone, Exprs.stringLiteral("b"))));
    assertThat(onColumn).isInstanceOf(Logic.Connective.class);
    Expr mixed = Exprs.connective(false, List.of(equalities.get(0), new Compare(Comparison.LESS, code,
        Exprs.stringLiteral("2"))));
    assertThat(mixed).isInstanceOf(Logic.Connective.class);
  }

  private static Expr literal(long value) {
    Col col = Col.longs(1, 0);
    col.longs[0] = value;
    return new Expr.Literal(col);
  }
}
