package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.vector.KeyPrefilter;
import dev.lake.query.vector.Unsupported;
import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles a subtree of the shape [sort/limit] over filters, projections and aggregates over one aggregate over
 * filters, projections and a tree of inner and outer joins (sub-queries decorrelated into them: EXISTS and IN as
 * inner joins with the distinct keys, NOT EXISTS and NOT IN as outer joins tested for NULL) into a
 * {@link VectorJoin} (where {@link dev.lake.query.plan.EngineChoice} chooses it): the biggest table scan of the join
 * tree (by estimated rows after its pushed filters, {@link FilteredRows}) becomes the probe pipeline, run by lake's
 * vectorized executor fragment by fragment in parallel, and every other input of the joins on its path becomes a
 * build side — any subtree, run by the rest of the plan (pushed down, or Calcite's runtime) and hashed before the
 * probe scan starts. Anything it cannot run keeps the current plan; so does a build side estimated above
 * {@link #MAX_BUILD_ROWS}.
 */
public final class VectorJoins {
  private static final Logger LOG = LoggerFactory.getLogger(VectorJoins.class);
  /**
   * The most rows the planner lets a build side have by its estimate: what a build side may hold at run time
   * ({@link dev.lake.query.vector.JoinSpec#MAX_BUILD_ROWS}). Its rows are held as Java columns plus a hash table
   * (about 50-100 bytes per row, charged to the query's memory limit); past that limit the build side spills to disk
   * (a grace hash join, {@link dev.lake.query.vector.PartitionedBuild}), so a build side of millions of rows (TPC-H
   * SF 10's orders, 15 M) is no reason to fall back to Calcite's row runtime, whose hash joins keep every row on the
   * heap and cannot spill.
   */
  static final double MAX_BUILD_ROWS = dev.lake.query.vector.JoinSpec.MAX_BUILD_ROWS;

  private VectorJoins() {}

  /**
   * {@code top} as a vectorized join, when it heads an aggregate over inner joins that the vectorized executor
   * supports with every build side estimated at most {@link #MAX_BUILD_ROWS} rows; empty otherwise (logged).
   */
  public static Optional<RelNode> of(RelNode top) {
    return vectorize(top, false);
  }

  /**
   * {@code original} as a vectorized join: an aggregate's (see {@link #of}), or with {@code rowsOnly} a tree of joins
   * under filters and projections whose rows are the result ({@link VectorPlan#rowsOnly()}).
   */
  private static Optional<RelNode> vectorize(RelNode original, boolean rowsOnly) {
    if ((rowsOnly ? joinBelowRows(original) : joinBelowAggregate(original)) == null) {
      return Optional.empty();
    }
    // COUNT(DISTINCT x) as an aggregate over the distinct groups (what the late rules do for Calcite's runtime).
    RelNode top = rowsOnly ? original : DistinctAggregates.expand(original);
    Join joins = rowsOnly ? joinBelowRows(top) : joinBelowAggregate(top);
    if (joins == null) {
      return Optional.empty();
    }
    RelMetadataQuery mq = top.getCluster().getMetadataQuery();
    List<LanceTableScan> candidates = new ArrayList<>();
    leaves(joins, candidates);
    LanceTableScan probe = null;
    double probeRows = -1;
    for (LanceTableScan scan : candidates) {
      // The scan's rows after its filter, estimated from the table's row count and column statistics.
      double rows = FilteredRows.estimate(scan, mq);
      if (rows > probeRows) {
        probe = scan;
        probeRows = rows;
      }
    }
    if (probe == null) {
      return Optional.empty();
    }
    ProbeJoins probeJoins = new ProbeJoins(probe);
    VectorPlan plan;
    try {
      plan = VectorPlanner.compile(top, probe, probeJoins, rowsOnly);
      for (RelNode build : probeJoins.builds()) {
        Double rows = mq.getRowCount(build);
        if (rows != null && rows > MAX_BUILD_ROWS) {
          throw new Unsupported(String.format(Locale.ROOT, "a build side of about %.0f rows (vectorized joins hash"
              + " at most %.0f)", rows, MAX_BUILD_ROWS));
        }
      }
    } catch (Unsupported e) {
      LOG.debug("join not vectorized table={} reason={}", probe.lanceTable().name(), e.getMessage());
      return Optional.empty();
    } catch (RuntimeException | AssertionError e) {
      // Calcite's literals throw AssertionError on some conversions (docs/dependencies.md): keep the current plan.
      LOG.warn("join not vectorized: compiling it failed table={} error={}", probe.lanceTable().name(), e.toString());
      return Optional.empty();
    }
    List<String> kinds = joinKinds(plan);
    String joined = kinds.stream().allMatch("inner"::equals) ? "inner equi-join(s)"
        : "join(s) (" + String.join(", ", kinds) + ")";
    long prefiltered = plan.before().stream().filter(op -> op instanceof KeyPrefilter)
        .mapToLong(op -> ((KeyPrefilter) op).candidates().size()).sum();
    String why = String.format(Locale.ROOT, "%s %d %s: %s (about %.0f rows) is scanned"
        + " fragment by fragment in parallel and probes %d hash table(s) built first from the other inputs%s%s",
        rowsOnly ? "rows of" : "aggregate over", probeJoins.builds().size(), joined, probe.lanceTable().name(),
        probeRows, probeJoins.builds().size(), prefiltered == 0 ? ""
            : String.format(Locale.ROOT, "; the keys of %d later join(s) are tested before the first", prefiltered),
        rowsOnly ? "; its rows go ungrouped into the joining hash table" : "");
    return Optional.of(VectorJoin.of(original, probeJoins.builds(), probe.lanceTable(), plan, why));
  }

  /**
   * The kind of each join of the probe pipeline, in pipeline order: inner, or an outer join keeping the unmatched
   * rows of the probe side (probe-outer), of the build side (build-outer) or of both (full-outer).
   */
  static List<String> joinKinds(VectorPlan plan) {
    List<String> kinds = new ArrayList<>();
    for (dev.lake.query.vector.Op op : plan.before()) {
      if (op instanceof dev.lake.query.vector.Op.Probe) {
        kinds.add("inner");
      } else if (op instanceof dev.lake.query.vector.OuterProbe) {
        kinds.add(((dev.lake.query.vector.OuterProbe) op).label());
      } else if (op instanceof dev.lake.query.vector.SemiProbe) {
        kinds.add(((dev.lake.query.vector.SemiProbe) op).label());
      }
    }
    return kinds;
  }

  /**
   * A build side that is itself a tree of inner joins, vectorized as a {@link VectorJoin} of its own whose plan is
   * {@link VectorPlan#rowsOnly() rows-only}: its probe pipeline's rows go straight into the joining hash table, as
   * they are (no grouping; a row joined twice is added twice, as the join yields it); null when it is no join tree or
   * cannot be vectorized (it then runs as planned).
   */
  static RelNode joinedBuild(RelNode build) {
    return vectorize(build, true).orElse(null);
  }

  /**
   * The inner join under {@code top}'s filters and projections, or null when {@code top} heads no such chain (the
   * shape of a {@link #joinedBuild}).
   */
  private static Join joinBelowRows(RelNode top) {
    RelNode rel = top;
    while (rel instanceof Filter || rel instanceof Project) {
      rel = rel.getInput(0);
    }
    return rel instanceof Join && ((Join) rel).getJoinType() == JoinRelType.INNER ? (Join) rel : null;
  }

  /**
   * The join under the aggregates of {@code top}'s single-input chain ([sort], filters, projections, aggregates,
   * filters, projections; the lowest aggregate is the pipeline's, those above it aggregate its groups), or null when
   * {@code top} does not head such a chain over an inner or outer join.
   */
  private static Join joinBelowAggregate(RelNode top) {
    boolean aggregated = false;
    RelNode rel = top;
    while (true) {
      if (rel instanceof Join) {
        JoinRelType type = ((Join) rel).getJoinType();
        return aggregated && (ProbeJoins.OUTER_OR_INNER.contains(type) || ProbeJoins.SEMI_OR_ANTI.contains(type))
            ? (Join) rel : null;
      }
      if (rel instanceof Aggregate) {
        aggregated = true;
      } else if (!(rel instanceof Filter || rel instanceof Project || (rel instanceof Sort && rel == top))) {
        return null;
      }
      rel = rel.getInput(0);
    }
  }

  /**
   * The scans a probe pipeline could start from: reached through inner and outer joins (either side: an outer join
   * keeps the unmatched rows of its build side too), filters and projections only.
   */
  private static void leaves(RelNode rel, List<LanceTableScan> out) {
    if (rel instanceof LanceTableScan) {
      LanceTableScan scan = (LanceTableScan) rel;
      boolean translated = scan.filter().isEmpty() || scan.condition().isPresent();
      if (translated && scan.limit().isEmpty() && scan.runtimeFilters().isEmpty()) {
        out.add(scan);
      }
    } else if (rel instanceof Join && ProbeJoins.SEMI_OR_ANTI.contains(((Join) rel).getJoinType())) {
      // A semi or anti join probes with its left input: only that side's rows come out.
      leaves(((Join) rel).getLeft(), out);
    } else if (rel instanceof Join && ProbeJoins.OUTER_OR_INNER.contains(((Join) rel).getJoinType())) {
      leaves(((Join) rel).getLeft(), out);
      leaves(((Join) rel).getRight(), out);
    } else if (rel instanceof Filter || rel instanceof Project) {
      leaves(rel.getInput(0), out);
    }
  }
}
