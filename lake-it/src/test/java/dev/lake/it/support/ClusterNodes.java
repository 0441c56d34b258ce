package dev.lake.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.registry.MetaStore;
import dev.lake.registry.dynamodb.DynamoDbMetaStore;
import dev.lake.registry.dynamodb.DynamoDbMetaStoreConfig;
import dev.lake.registry.dynamodb.Dynoxide;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Settings for the nodes of a test cluster: every node on the same S3 prefix and DynamoDB registry table, each
 * with its own node id, an internal endpoint on a free port, and short lease timings so that failovers take
 * seconds.
 */
public final class ClusterNodes {
  /**
   * In-process nodes: 2 s lease, 800 ms safety margin, 300 ms campaign timeout, a campaign every 200 ms (a new
   * leader within about 2.5 s of the old one stopping).
   */
  public static final Map<String, String> SHORT_LEASE = Map.of(
      "lease.duration", "2s",
      "lease.safety-margin", "800ms",
      "lease.campaign-timeout", "300ms",
      "lease.renew-interval", "200ms");

  /** Server processes (slower to answer while several JVMs share two cores): 3 s, 1 s, 500 ms, 400 ms. */
  public static final Map<String, String> PROCESS_LEASE = Map.of(
      "lease.duration", "3s",
      "lease.safety-margin", "1s",
      "lease.campaign-timeout", "500ms",
      "lease.renew-interval", "400ms");

  private ClusterNodes() {}

  /** The keys of node {@code nodeId} of the cluster on {@code s3}/{@code prefix} and registry {@code table}. */
  public static Map<String, String> node(S3ProxyServer s3, String prefix, Dynoxide dynamoDb, String table,
      String nodeId, Map<String, String> lease) {
    Map<String, String> settings = new HashMap<>(ClusterSettings.of(s3, prefix, dynamoDb, table));
    settings.put("node.id", nodeId);
    settings.put("server.internal-port", "0");
    settings.putAll(lease);
    return settings;
  }

  /** The same keys as {@code LAKE_*} environment variables, for {@code bin/lake server}. */
  public static Map<String, String> asEnvironment(Map<String, String> settings) {
    Map<String, String> env = new HashMap<>();
    settings.forEach((k, v) -> env.put("LAKE_" + k.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'), v));
    return env;
  }

  /** {@code lake.status} of the node {@code client} is connected to. */
  public static JsonNode status(FlightTestClient client) {
    return AdminClient.action(client, "lake.status", "{}");
  }

  /** A port that was free a moment ago (for a node whose internal endpoint must sit behind a {@link TcpProxy}). */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * Ingests {@code first .. first+count-1} (one batch of {@code v BIGINT}) with {@code lake.idempotency_key} =
   * {@code key}; returns the acknowledged row count.
   */
  public static long ingest(FlightTestClient client, String table, long first, int count,
      TableDefinitionOptions options, String key) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(LongTable.SCHEMA, client.allocator())) {
      root.allocateNew();
      BigIntVector v = (BigIntVector) root.getVector(0);
      for (int i = 0; i < count; i++) {
        v.setSafe(i, first + i);
      }
      root.setRowCount(count);
      return client.sql().executeIngest(root, new FlightSqlClient.ExecuteIngestOptions(table, options, null, null,
          Map.of("lake.idempotency_key", key)), client.auth());
    }
  }

  /** The test's own view of registry table {@code table} (independent of any node and its faults); close it. */
  public static MetaStore registryView(Dynoxide dynamoDb, String table) {
    return DynamoDbMetaStore.open(dynamoDb.newClient(), DynamoDbMetaStoreConfig.of(table));
  }
}
