package dev.lake.flight.metrics;

import dev.lake.query.CatalogStats;
import dev.lake.query.model.PushdownStats;
import dev.lake.query.spill.NodeSpill;
import dev.lake.query.vector.ColumnCache;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What the gauges read from the node when Prometheus scrapes (nothing is sampled in between).
 *
 * @param runningQueries queries holding an admission slot now
 * @param queuedQueries queries waiting for one (the admission queue depth)
 * @param catalog the catalog cache's counters
 * @param leader whether this node's write gate is open
 * @param term the lease term this node knows (its own when leading, the observed leader's otherwise; 0 = none)
 * @param pushdown the counters of single-table subtrees run outside Calcite (Lance SQL, vectorized, fallbacks)
 * @param columnCache the vectorized executor's column cache: hits, misses, bytes held
 * @param spill what operators spilled to disk: bytes, files, spilling queries, bytes held now
 */
public record NodeProbes(IntSupplier runningQueries, IntSupplier queuedQueries, Supplier<CatalogStats> catalog,
    BooleanSupplier leader, LongSupplier term, Supplier<PushdownStats> pushdown,
    Supplier<ColumnCache.Stats> columnCache, Supplier<NodeSpill.Stats> spill) {
  public NodeProbes {
    Objects.requireNonNull(runningQueries, "runningQueries");
    Objects.requireNonNull(queuedQueries, "queuedQueries");
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(leader, "leader");
    Objects.requireNonNull(term, "term");
    Objects.requireNonNull(pushdown, "pushdown");
    Objects.requireNonNull(columnCache, "columnCache");
    Objects.requireNonNull(spill, "spill");
  }
}
