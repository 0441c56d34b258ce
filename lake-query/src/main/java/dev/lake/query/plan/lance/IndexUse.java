package dev.lake.query.plan.lance;

import dev.lake.query.model.ColumnIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * Which scalar indexes of a pinned version a scan's pushed filter lets Lance use. Lance's scanner (7.0.0) answers a
 * filter with a scalar index query when a conjunct compares an indexed column itself with literals: {@code =},
 * {@code <}, {@code <=}, {@code >}, {@code >=}, {@code IN}, {@code BETWEEN} (Calcite's SEARCH), {@code IS NULL}, and
 * ORs of such comparisons; the other conjuncts refine the rows the index found (answers stay exact whatever it
 * picks). EXPLAIN names the indexes this finds; a column wrapped in a function or a CAST is not index-usable.
 */
final class IndexUse {
  private IndexUse() {}

  /** The indexes of {@code indexes} that {@code condition} (over {@code fields}) lets Lance use, in their order. */
  static List<ColumnIndex> used(RexNode condition, List<Field> fields, List<ColumnIndex> indexes) {
    if (indexes.isEmpty()) {
      return List.of();
    }
    Set<String> columns = new HashSet<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
      Set<String> found = new HashSet<>();
      if (usable(conjunct, fields, found)) {
        columns.addAll(found);
      }
    }
    List<ColumnIndex> used = new ArrayList<>();
    for (ColumnIndex index : indexes) {
      if (columns.contains(index.column())) {
        used.add(index);
      }
    }
    return used;
  }

  /** Whether {@code node} is an index-usable predicate; adds the columns it reads to {@code columns}. */
  private static boolean usable(RexNode node, List<Field> fields, Set<String> columns) {
    if (!(node instanceof RexCall call)) {
      return false;
    }
    switch (call.getKind()) {
      case OR:
        for (RexNode disjunct : call.getOperands()) {
          if (!usable(disjunct, fields, columns)) {
            return false;
          }
        }
        return true;
      case EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, SEARCH, IN, IS_NULL:
        RexInputRef ref = null;
        for (RexNode operand : call.getOperands()) {
          if (operand instanceof RexInputRef r && ref == null) {
            ref = r;
          } else if (!(operand instanceof RexLiteral)) {
            return false;
          }
        }
        if (ref == null || ref.getIndex() >= fields.size()) {
          return false;
        }
        columns.add(fields.get(ref.getIndex()).getName());
        return true;
      default:
        return false;
    }
  }
}
