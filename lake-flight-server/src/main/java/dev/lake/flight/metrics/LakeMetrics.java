package dev.lake.flight.metrics;

import dev.lake.query.CatalogStats;
import dev.lake.query.model.PushdownStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.function.ToDoubleFunction;

/**
 * The node's meters (one registry per node, no global registry): query executions and ingests by outcome with
 * latency histograms, rows and bytes, and gauges read from {@link NodeProbes} at scrape time. Names as Prometheus
 * shows them are listed in docs/operations.md. Thread-safe.
 */
public final class LakeMetrics implements AutoCloseable {
  private static final Duration MIN_LATENCY = Duration.ofMillis(1);
  private static final Duration MAX_LATENCY = Duration.ofMinutes(30);

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final Counter queryRows;
  private final Counter queryBytes;
  private final Counter ingestRows;
  private final Counter ingestBytes;
  /** Held here: Micrometer keeps gauge state objects only weakly. */
  private final NodeProbes probes;

  public LakeMetrics(String nodeId, NodeProbes probes) {
    this.probes = probes;
    registry.config().commonTags("node", nodeId);
    queryRows = Counter.builder("lake.query.rows").description("Rows sent to clients by query executions")
        .baseUnit("rows").register(registry);
    queryBytes = Counter.builder("lake.query.bytes").description("Arrow buffer bytes sent by query executions")
        .baseUnit("bytes").register(registry);
    ingestRows = Counter.builder("lake.ingest.rows").description("Rows written by bulk ingests on this node")
        .baseUnit("rows").register(registry);
    ingestBytes = Counter.builder("lake.ingest.bytes").description("Arrow buffer bytes written by bulk ingests on "
        + "this node").baseUnit("bytes").register(registry);
    Gauge.builder("lake.queries.active", probes.runningQueries(), s -> s.getAsInt())
        .description("Queries holding an admission slot").register(registry);
    Gauge.builder("lake.queries.queued", probes.queuedQueries(), s -> s.getAsInt())
        .description("Queries waiting for an admission slot (queue depth)").register(registry);
    Gauge.builder("lake.leader", probes.leader(), s -> s.getAsBoolean() ? 1 : 0)
        .description("1 while this node's write gate is open (it is the leader), else 0").register(registry);
    Gauge.builder("lake.leader.term", probes.term(), s -> s.getAsLong())
        .description("The lease term this node knows (its own when leading)").register(registry);
    catalog(probes);
    pushdown(probes);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    gc.bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  private void catalog(NodeProbes probes) {
    catalogCounter("lake.catalog.hits", "Catalog look-ups answered from the cache", probes, CatalogStats::hits);
    catalogCounter("lake.catalog.misses", "Catalog look-ups that needed a registry point read", probes,
        CatalogStats::misses);
    catalogCounter("lake.catalog.point.loads", "Registry point reads issued by the catalog", probes,
        CatalogStats::pointLoads);
    catalogCounter("lake.catalog.refreshes", "Successful full catalog refreshes", probes, CatalogStats::refreshes);
    catalogCounter("lake.catalog.refresh.failures", "Failed full catalog refreshes", probes,
        CatalogStats::refreshFailures);
    Gauge.builder("lake.catalog.tables", probes, p -> p.catalog().get().tables())
        .description("Tables in the catalog snapshot").register(registry);
    Gauge.builder("lake.catalog.snapshot.age", probes, p -> p.catalog().get().snapshotAge().toMillis() / 1000.0)
        .description("Age of the catalog snapshot served now").baseUnit("seconds").register(registry);
  }

  private void pushdown(NodeProbes probes) {
    pushdownCounter("lake.pushdown.lance.sql", "Single-table subtrees run in Lance's SQL engine", probes,
        PushdownStats::statements);
    pushdownCounter("lake.pushdown.vectorized", "Single-table subtrees run by lake's vectorized executor", probes,
        PushdownStats::vectorized);
    pushdownCounter("lake.pushdown.fallbacks", "Pushed-down subtrees Lance rejected, which Calcite then ran", probes,
        PushdownStats::fallbacks);
    FunctionCounter.builder("lake.column.cache.hits", probes, p -> p.columnCache().get().hits())
        .description("Fragment columns the vectorized executor read from its column cache").register(registry);
    FunctionCounter.builder("lake.column.cache.misses", probes, p -> p.columnCache().get().misses())
        .description("Fragment columns the vectorized executor decoded from Lance into its column cache")
        .register(registry);
    Gauge.builder("lake.column.cache.size", probes, p -> p.columnCache().get().bytes())
        .description("Heap held by the column cache (approximate)").baseUnit("bytes").register(registry);
    FunctionCounter.builder("lake.query.spill.bytes", probes, p -> p.spill().get().bytes())
        .description("Bytes operators past the query memory limit wrote to spill files").baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder("lake.query.spill.files", probes, p -> p.spill().get().files())
        .description("Spill files operators created").register(registry);
    FunctionCounter.builder("lake.query.spill.queries", probes, p -> p.spill().get().queries())
        .description("Query executions that spilled to disk").register(registry);
    Gauge.builder("lake.query.spill.held", probes, p -> p.spill().get().heldBytes())
        .description("Bytes in spill files now (deleted when their query ends)").baseUnit("bytes").register(registry);
  }

  private void pushdownCounter(String name, String description, NodeProbes probes,
      ToDoubleFunction<PushdownStats> value) {
    FunctionCounter.builder(name, probes, p -> value.applyAsDouble(p.pushdown().get())).description(description)
        .register(registry);
  }

  private void catalogCounter(String name, String description, NodeProbes probes,
      ToDoubleFunction<CatalogStats> value) {
    FunctionCounter.builder(name, probes, p -> value.applyAsDouble(p.catalog().get())).description(description)
        .register(registry);
  }

  /** Records one finished query (its rows and bytes were counted as they were sent, {@link #sent}). */
  public void queryFinished(QueryRecord query) {
    latency("lake.query.duration", "Query executions (DoGet start to last batch) by outcome", query.outcome())
        .record(query.duration());
  }

  /** Records one result batch sent to a client. */
  public void sent(long rows, long bytes) {
    queryRows.increment(rows);
    queryBytes.increment(bytes);
  }

  /** Records one finished bulk-ingest request on the node the client called ({@code ok} or the status code). */
  public void ingestFinished(String outcome, Duration duration) {
    latency("lake.ingest.duration", "Bulk-ingest requests (as received from clients) by outcome", outcome)
        .record(duration);
  }

  /** Records rows and bytes an ingest wrote on this node (the leader, for forwarded ingests). */
  public void ingested(long rows, long bytes) {
    ingestRows.increment(rows);
    ingestBytes.increment(bytes);
  }

  private Timer latency(String name, String description, String outcome) {
    return Timer.builder(name).description(description).tag("outcome", outcome).publishPercentileHistogram()
        .minimumExpectedValue(MIN_LATENCY).maximumExpectedValue(MAX_LATENCY).register(registry);
  }

  /** The meters in Prometheus' text format. */
  public String scrape() {
    return registry.scrape();
  }

  public MeterRegistry registry() {
    return registry;
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
