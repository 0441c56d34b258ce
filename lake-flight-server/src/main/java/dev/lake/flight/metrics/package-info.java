/**
 * What a node tells its operators: Prometheus metrics through Micrometer ({@link dev.lake.flight.metrics.LakeMetrics}:
 * queries and ingests by outcome, rows and bytes, active and queued queries, catalog cache, leadership), the small
 * HTTP server that serves them with {@code /health} and {@code /ready}
 * ({@link dev.lake.flight.metrics.ObservabilityServer}, {@link dev.lake.flight.metrics.Readiness}), the slow-query
 * log ({@link dev.lake.flight.metrics.SlowQueryLog}) and the log format ({@link dev.lake.flight.metrics.LogFormat}).
 * Keys {@code metrics.*} and {@code log.*} in docs/config.md; the meters are listed in docs/operations.md.
 */
package dev.lake.flight.metrics;
