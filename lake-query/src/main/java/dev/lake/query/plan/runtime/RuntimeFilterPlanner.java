package dev.lake.query.plan.runtime;

import dev.lake.query.plan.lance.EnumerablePushedSubtree;
import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.lance.RuntimeFilter;
import dev.lake.query.plan.lance.RuntimeKeys;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.IntPair;

/**
 * Runtime filters (semi-join reduction) for Calcite's hash joins over Lance scans. An inner hash join builds its
 * right input before it reads its left one, so once the build side is known to be small, its join keys can travel
 * down the left input — through projections, filters and further inner hash joins — to the Lance scan that produces
 * the key column, which then scans only rows whose key the build side holds ({@code key IN (...)}, evaluated by
 * Lance; at most {@link RuntimeKeys#MAX_KEYS} distinct keys, else nothing is filtered). TPC-H's fact table scans
 * shrink from millions of rows to the few thousand that can join. A filter is planned only where it should pay: the
 * build side estimated small, the scan much larger, and the build's keys a minority of the scan column's distinct
 * values. Applied to the physical plan after Volcano; keys of integer and string columns only.
 */
public final class RuntimeFilterPlanner {
  /** Build sides estimated larger than this are not worth collecting. */
  private static final double MAX_BUILD_ROWS = 200_000;
  /** The probe scan must be this many times larger than the build side. */
  private static final double MIN_PROBE_RATIO = 4;
  /** A scan of n rows takes at most n / this keys in its IN list. */
  private static final double KEYS_PER_PROBE_ROWS = 20;
  /** A build side holding at least this share of the probe column's distinct values filters too little. */
  private static final double MAX_KEY_SHARE = 0.5;

  private final RelMetadataQuery mq;
  private final Set<Integer> landed = new HashSet<>();
  private int nextSlot;

  private RuntimeFilterPlanner(RelMetadataQuery mq) {
    this.mq = mq;
  }

  /** {@code plan} with runtime filters where they pay. */
  public static RelNode apply(RelNode plan) {
    return new RuntimeFilterPlanner(plan.getCluster().getMetadataQuery()).rewrite(plan, List.of());
  }

  /**
   * A filter waiting for the scan that produces column {@code column} of the current rel.
   *
   * @param buildRows the estimated rows of the build side whose keys it carries
   */
  private record Pending(int column, int slot, double buildRows, double buildKeys) {}

  private RelNode rewrite(RelNode rel, List<Pending> pending) {
    if (rel instanceof EnumerableHashJoin) {
      return join((EnumerableHashJoin) rel, pending);
    }
    if (rel instanceof EnumerableCalc) {
      EnumerableCalc calc = (EnumerableCalc) rel;
      RelNode input = rewrite(calc.getInput(), throughCalc(calc.getProgram(), pending));
      return input == calc.getInput() ? calc : calc.copy(calc.getTraitSet(), List.of(input));
    }
    if (rel instanceof LanceTableScan) {
      return scan((LanceTableScan) rel, pending);
    }
    if (rel instanceof EnumerablePushedSubtree) {
      return rel;
    }
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode rewritten = rewrite(input, List.of());
      changed |= rewritten != input;
      inputs.add(rewritten);
    }
    return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
  }

  private RelNode join(EnumerableHashJoin join, List<Pending> pending) {
    boolean inner = join.getJoinType() == JoinRelType.INNER;
    int leftCount = join.getLeft().getRowType().getFieldCount();
    List<Pending> left = new ArrayList<>();
    List<Pending> right = new ArrayList<>();
    if (inner) {
      for (Pending filter : pending) {
        if (filter.column() < leftCount) {
          left.add(filter);
        } else {
          right.add(new Pending(filter.column() - leftCount, filter.slot(), filter.buildRows(), filter.buildKeys()));
        }
      }
    }
    List<IntPair> own = new ArrayList<>();
    Double buildRows = mq.getRowCount(join.getRight());
    if (inner && buildRows != null && buildRows <= MAX_BUILD_ROWS) {
      JoinInfo info = join.analyzeCondition();
      for (IntPair pair : info.pairs()) {
        if (filterable(join.getLeft().getRowType().getFieldList().get(pair.source).getType())) {
          int slot = nextSlot++;
          Double keys = mq.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(pair.target), null);
          left.add(new Pending(pair.source, slot, buildRows, keys == null ? buildRows : keys));
          own.add(IntPair.of(slot, pair.target));
        }
      }
    }
    RelNode newLeft = rewrite(join.getLeft(), left);
    RelNode newRight = rewrite(join.getRight(), right);
    for (IntPair slotAndKey : own) {
      if (landed.contains(slotAndKey.source)) {
        newRight = new EnumerableKeyCollector(newRight, slotAndKey.source, slotAndKey.target);
      }
    }
    return newLeft == join.getLeft() && newRight == join.getRight() ? join
        : join.copy(join.getTraitSet(), join.getCondition(), newLeft, newRight, join.getJoinType(),
            join.isSemiJoinDone());
  }

  /** The pending filters of a calc's outputs that are its input's columns, renumbered to the input. */
  private static List<Pending> throughCalc(RexProgram program, List<Pending> pending) {
    List<Pending> mapped = new ArrayList<>();
    for (Pending filter : pending) {
      RexLocalRef projected = program.getProjectList().get(filter.column());
      RexNode expanded = program.expandLocalRef(projected);
      if (expanded instanceof RexInputRef) {
        mapped.add(new Pending(((RexInputRef) expanded).getIndex(), filter.slot(), filter.buildRows(),
            filter.buildKeys()));
      }
    }
    return mapped;
  }

  private RelNode scan(LanceTableScan scan, List<Pending> pending) {
    if (pending.isEmpty()) {
      return scan;
    }
    Double scanRows = scan.getTable().getRowCount();
    List<RuntimeFilter> filters = new ArrayList<>(scan.runtimeFilters());
    for (Pending filter : pending) {
      if (scanRows == null || scanRows < MIN_PROBE_RATIO * filter.buildRows()) {
        continue;
      }
      String column = scan.lanceTable().fields().get(scan.projects().get(filter.column())).getName();
      Double probeKeys = mq.getDistinctRowCount(scan, ImmutableBitSet.of(filter.column()), null);
      if (column.indexOf('`') >= 0 || probeKeys != null && filter.buildKeys() >= MAX_KEY_SHARE * probeKeys) {
        continue;
      }
      int maxKeys = (int) Math.min(RuntimeKeys.MAX_KEYS, scanRows / KEYS_PER_PROBE_ROWS);
      filters.add(new RuntimeFilter(filter.slot(), column, maxKeys));
      landed.add(filter.slot());
    }
    return filters.size() == scan.runtimeFilters().size() ? scan : scan.withRuntimeFilters(filters);
  }

  private static boolean filterable(RelDataType type) {
    switch (type.getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case CHAR:
      case VARCHAR:
        return true;
      default:
        return false;
    }
  }
}
