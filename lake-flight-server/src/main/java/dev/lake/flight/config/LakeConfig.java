package dev.lake.flight.config;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.flight.auth.User;
import dev.lake.flight.cluster.ClusterNodeSettings;
import dev.lake.flight.limits.LimitSettings;
import dev.lake.flight.metrics.LogSettings;
import dev.lake.flight.metrics.MetricsSettings;
import dev.lake.flight.security.GuardSettings;
import dev.lake.flight.namespace.NamespaceSettings;
import dev.lake.flight.security.SecuritySettings;
import dev.lake.flight.spool.ResultSettings;
import dev.lake.flight.storage.StorageSettings;
import dev.lake.query.CatalogSettings;
import dev.lake.metasrv.MaintenanceSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The validated configuration of one node. Every key, its default and its meaning are in docs/config.md.
 *
 * @param nodeId this node's id (lease holder id, logs)
 * @param host the address the Flight SQL endpoint binds
 * @param port its port (0 = any free port)
 * @param dataDir the node's data directory: the RocksDB registry, the generated cluster secret, and (by default)
 *     the table data root
 * @param dataRoot where table data lives: an absolute local path, or an {@code s3://bucket/prefix} URI
 * @param users configured users by name (the default user lake/lake when none are configured)
 * @param defaultPasswordInForce true when the built-in lake/lake user is active
 * @param clusterSecret the secret that signs tokens, handles and tickets (generated into the data directory when
 *     not configured)
 * @param tokenLifetime how long a bearer token stays valid
 * @param ticketLifetime how long a ticket stays valid after GetFlightInfo
 * @param batchRows rows per Arrow batch read from Lance
 * @param queryMemoryLimit the most Arrow memory (bytes) one query may hold on the Java side
 * @param ingestMemoryLimit the most Arrow memory (bytes) one ingest may hold on the Java side
 * @param lockTimeout how long a writer waits for a table's write lock
 * @param maintenance retention window, drop grace, orphan guard, compaction options
 * @param maintenanceInterval how often retention and garbage collection run in the background
 * @param catalog the catalog cache shield: TTL, staleness bound, negative TTL, refresh interval
 * @param planCacheSize the bytes the planning cache's validated statements may be estimated to retain
 *     ({@code query.plan-cache-size}; 0: none)
 * @param queryExecutor which engine runs pushed-down single-table subtrees ({@code query.executor}: auto,
 *     vectorized, lance-sql or calcite)
 * @param spill where and how much operators past the query's memory limit spill to local disk
 *     ({@code query.spill-dir}, {@code query.spill-limit}, {@code query.node-spill-limit})
 * @param columnCacheBytes the heap the vectorized executor's decoded-column cache may hold ({@code
 *     query.column-cache}; 0: off)
 * @param warmupRows fact rows of the start-up executor warm-up ({@code query.warmup-rows}; 0: none)
 * @param autoAnalyze whether each version this node registers is analyzed (its columns' distinct values sketched) in
 *     the background ({@code query.auto-analyze})
 * @param autoParameterize whether an un-prepared statement's comparison literals become parameters so that
 *     statements differing only in them share one cached plan ({@code query.auto-parameterize})
 * @param vectorizedMaxGroups under {@code query.executor} auto, the most estimated groups of a single-table aggregate
 *     the vectorized executor takes; more go to Lance's SQL engine ({@code query.vectorized-max-groups})
 * @param queryNodeMemoryLimit the most memory (bytes) all queries of this node together may hold: their Arrow
 *     buffers and the heap their operators and plans are charged for ({@code query.node-memory-limit})
 * @param storage how S3 is reached (for an s3:// data root), the registry backend and the DynamoDB table
 * @param security TLS, mutual TLS and whether plaintext may be served off loopback
 * @param guard frame and header limits of the endpoints and the failed-login throttle
 * @param limits query timeout, concurrency and admission queue
 * @param results where and for how long heavy results (PollFlightInfo) are spooled
 * @param cluster lease timings, internal endpoint port and advertised addresses (used with the DynamoDB registry)
 * @param metrics the metrics, health and readiness endpoint
 * @param log the log format and the slow-query log
 * @param streams limits on incoming DoPut streams (first-message deadline, open streams per user)
 * @param statementLimits limits of one statement (length, depth, IN lists, joins, set operations, parameters)
 * @param namespace the Lance REST Namespace endpoint and snapshot pins
 */
public record LakeConfig(
    String nodeId,
    String host,
    int port,
    Path dataDir,
    String dataRoot,
    Map<String, User> users,
    boolean defaultPasswordInForce,
    Optional<String> clusterSecret,
    Duration tokenLifetime,
    Duration ticketLifetime,
    int batchRows,
    long queryMemoryLimit,
    long ingestMemoryLimit,
    Duration lockTimeout,
    MaintenanceSettings maintenance,
    Duration maintenanceInterval,
    StorageSettings storage,
    CatalogSettings catalog,
    long planCacheSize,
    SubtreeExecutor queryExecutor,
    long columnCacheBytes,
    long queryNodeMemoryLimit,
    SecuritySettings security,
    GuardSettings guard,
    LimitSettings limits,
    ResultSettings results,
    ClusterNodeSettings cluster,
    MetricsSettings metrics,
    LogSettings log,
    dev.lake.flight.streams.StreamSettings streams,
    dev.lake.query.sql.StatementLimits statementLimits,
    NamespaceSettings namespace,
    dev.lake.query.spill.SpillOptions spill,
    int warmupRows,
    boolean autoAnalyze,
    boolean autoParameterize,
    long vectorizedMaxGroups) {

  /** {@code query.warmup-rows}'s default: fact rows of the start-up executor warm-up. */
  public static final int DEFAULT_WARMUP_ROWS = 262_144;

  public LakeConfig {
    Objects.requireNonNull(spill, "spill");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(streams, "streams");
    Objects.requireNonNull(statementLimits, "statementLimits");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(queryExecutor, "queryExecutor");
    Objects.requireNonNull(security, "security");
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(results, "results");
    Objects.requireNonNull(catalog, "catalog");
    if (warmupRows != 0 && warmupRows < dev.lake.query.ExecutorWarmup.MIN_ROWS) {
      throw new IllegalArgumentException("query.warmup-rows must be 0 (no executor warm-up) or at least "
          + dev.lake.query.ExecutorWarmup.MIN_ROWS + ", was " + warmupRows);
    }
    if (columnCacheBytes < 0) {
      throw new IllegalArgumentException("query.column-cache must be >= 0 (0 turns it off), was " + columnCacheBytes);
    }
    if (queryNodeMemoryLimit < 1 << 20) {
      throw new IllegalArgumentException("query.node-memory-limit must be at least 1MB, was " + queryNodeMemoryLimit);
    }
    if (planCacheSize < 0) {
      throw new IllegalArgumentException("query.plan-cache-size must be >= 0 (0 turns it off)");
    }
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(dataRoot, "dataRoot");
    users = Map.copyOf(users);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("server.port must be 0..65535, was " + port);
    }
    if (users.isEmpty()) {
      throw new IllegalArgumentException("auth.users is empty: configure at least one user");
    }
    if (batchRows < 1 || batchRows > 1_048_576) {
      throw new IllegalArgumentException("query.batch-rows must be 1..1048576, was " + batchRows);
    }
    positive("auth.token-lifetime", tokenLifetime);
    positive("query.ticket-lifetime", ticketLifetime);
    if (queryMemoryLimit < 1 << 20 || ingestMemoryLimit < 1 << 20) {
      throw new IllegalArgumentException("query.memory-limit and ingest.memory-limit must be at least 1MB");
    }
    positive("write.lock-timeout", lockTimeout);
    Objects.requireNonNull(maintenance, "maintenance");
    positive("maintenance.interval", maintenanceInterval);
    Objects.requireNonNull(storage, "storage");
  }

  private static void positive(String key, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(key + " must be a positive duration (e.g. 30s, 15m, 12h)");
    }
  }
}
