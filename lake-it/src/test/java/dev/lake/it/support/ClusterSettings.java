package dev.lake.it.support;

import dev.lake.registry.dynamodb.Dynoxide;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** Configuration keys of a cluster-style node: tables on an S3 stand-in, the registry in a DynamoDB stand-in. */
public final class ClusterSettings {
  /** A cluster secret every node of a test cluster shares (at least 32 characters). */
  public static final String SECRET = "lake-it-cluster-secret-0123456789abcdef";

  private ClusterSettings() {}

  /**
   * Data root {@code s3://<bucket>/<prefix>/} on {@code s3}, registry table {@code table} in {@code dynamoDb}
   * (created by lake), maintenance only when the test asks for it.
   */
  public static Map<String, String> of(S3ProxyServer s3, String prefix, Dynoxide dynamoDb, String table) {
    return of(s3, prefix, s3.endpoint(), dynamoDb.endpoint(), table);
  }

  public static Map<String, String> of(S3ProxyServer s3, String prefix, URI s3Endpoint, URI dynamoDbEndpoint,
      String table) {
    Map<String, String> settings = new HashMap<>(s3.nodeSettings(prefix, s3Endpoint));
    settings.putAll(dynamoDb(dynamoDbEndpoint, table, true));
    settings.put("cluster.secret", SECRET);
    settings.put("maintenance.interval", "1h");
    return settings;
  }

  /** The registry keys for table {@code table} at {@code endpoint} (the stand-ins accept any key pair). */
  public static Map<String, String> dynamoDb(URI endpoint, String table, boolean createTable) {
    return Map.of(
        "registry.backend", "dynamodb",
        "dynamodb.endpoint", endpoint.toString(),
        "dynamodb.region", "us-east-1",
        "dynamodb.table", table,
        "dynamodb.create-table", Boolean.toString(createTable),
        "dynamodb.access-key-id", "lake",
        "dynamodb.secret-access-key", "lake");
  }
}
