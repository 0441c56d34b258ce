package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTableScan;
import java.util.List;
import java.util.OptionalDouble;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Sarg;

/**
 * The rows a scan keeps after its pushed filter, for choosing a vectorized join's probe and build sides: the pinned
 * version's row count times each conjunct's selectivity — an equality or IN list on a column keeps its share of the
 * column's distinct values (lake's estimates, {@link dev.lake.query.plan.lance.ColumnStatistics}), a NOT IN list the
 * rest; other conjuncts Calcite's guesses (a comparison 0.5, a range 0.25). The join-order heuristics keep Calcite's
 * flat estimate (a filtered scan keeps a quarter), under which TPC-H Q12's filtered lineitem (0.5% of 6 million rows
 * at SF 1) looked as big as the 1.5 million orders and became the probe, orders the build side.
 */
final class FilteredRows {
  private static final double EQUALS_UNKNOWN = 0.15;

  private FilteredRows() {}

  static double estimate(LanceTableScan scan, RelMetadataQuery mq) {
    Double planned = mq.getRowCount(scan);
    if (scan.condition().isEmpty()) {
      return planned == null ? 0 : planned;
    }
    double rows = scan.getTable().getRowCount();
    double selectivity = 1;
    for (RexNode conjunct : RelOptUtil.conjunctions(scan.condition().get())) {
      selectivity *= selectivity(scan, conjunct);
    }
    return Math.max(1, rows * selectivity);
  }

  private static double selectivity(LanceTableScan scan, RexNode conjunct) {
    if (conjunct instanceof RexCall && ((RexCall) conjunct).getOperands().size() == 2) {
      RexCall call = (RexCall) conjunct;
      RexNode left = call.getOperands().get(0);
      RexNode right = call.getOperands().get(1);
      if (left instanceof RexInputRef && right instanceof RexLiteral) {
        if (call.getKind() == SqlKind.EQUALS) {
          OptionalDouble distinct = distinctValues(scan, (RexInputRef) left);
          return distinct.isPresent() ? 1 / Math.max(1, distinct.getAsDouble()) : EQUALS_UNKNOWN;
        }
        if (call.getKind() == SqlKind.SEARCH) {
          Sarg<?> sarg = ((RexLiteral) right).getValueAs(Sarg.class);
          if (sarg != null && (sarg.isPoints() || sarg.isComplementedPoints())) {
            OptionalDouble distinct = distinctValues(scan, (RexInputRef) left);
            int points = sarg.isPoints() ? sarg.pointCount : sarg.negate().pointCount;
            double kept = distinct.isPresent() ? Math.min(1, points / Math.max(1, distinct.getAsDouble()))
                : Math.min(1, points * EQUALS_UNKNOWN);
            return sarg.isPoints() ? kept : Math.max(0.05, 1 - kept);
          }
        }
      }
    }
    return RelMdUtil.guessSelectivity(conjunct);
  }

  /** The estimated distinct values of the stored column {@code ref} (asked only for equalities and IN lists). */
  private static OptionalDouble distinctValues(LanceTableScan scan, RexInputRef ref) {
    return scan.lanceTable().distinctValues(List.of(scan.lanceTable().fields().get(ref.getIndex()).getName()));
  }
}
