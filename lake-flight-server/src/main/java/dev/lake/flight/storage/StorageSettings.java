package dev.lake.flight.storage;

import dev.lake.engine.S3Uri;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A node's storage and registry settings: how to reach S3 (used when {@code data.root} is {@code s3://...}), which
 * registry backend, and the DynamoDB table.
 *
 * @param s3 S3 endpoint, region, credentials and addressing
 * @param registry the registry backend
 * @param dynamoDb the DynamoDB table (used when {@code registry} is {@link RegistryBackend#DYNAMODB})
 */
public record StorageSettings(S3Settings s3, RegistryBackend registry, DynamoDbSettings dynamoDb) {

  /** The configuration keys read here and their defaults (null: none), in the order docs/config.md lists them. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("s3.endpoint", null);
    keys.put("s3.region", null);
    keys.put("s3.access-key-id", null);
    keys.put("s3.secret-access-key", null);
    keys.put("s3.path-style", null);
    keys.put("registry.backend", "rocksdb");
    keys.put("dynamodb.table", DynamoDbSettings.DEFAULT_TABLE);
    keys.put("dynamodb.endpoint", null);
    keys.put("dynamodb.region", null);
    keys.put("dynamodb.create-table", "false");
    keys.put("dynamodb.access-key-id", null);
    keys.put("dynamodb.secret-access-key", null);
    KEYS = Collections.unmodifiableMap(keys);
  }

  public StorageSettings {
    Objects.requireNonNull(s3, "s3");
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(dynamoDb, "dynamoDb");
  }

  /** The single-node defaults: RocksDB, AWS S3 chains (unused while the data root is local). */
  public static StorageSettings defaults() {
    return new StorageSettings(S3Settings.aws(), RegistryBackend.ROCKSDB, DynamoDbSettings.defaults());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static StorageSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k)) {
        v.put(k, value);
      }
    });
    Optional<java.net.URI> s3Endpoint = SettingValues.text(v, "s3.endpoint")
        .map(t -> SettingValues.endpoint("s3.endpoint", t));
    boolean pathStyle = SettingValues.text(v, "s3.path-style")
        .map(t -> SettingValues.bool("s3.path-style", t))
        .orElse(s3Endpoint.isPresent());
    S3Settings s3 = new S3Settings(s3Endpoint, SettingValues.text(v, "s3.region"),
        SettingValues.text(v, "s3.access-key-id"), SettingValues.text(v, "s3.secret-access-key"), pathStyle);
    DynamoDbSettings dynamoDb = new DynamoDbSettings(
        SettingValues.text(v, "dynamodb.table").orElse(DynamoDbSettings.DEFAULT_TABLE),
        SettingValues.text(v, "dynamodb.endpoint").map(t -> SettingValues.endpoint("dynamodb.endpoint", t)),
        SettingValues.text(v, "dynamodb.region"),
        SettingValues.bool("dynamodb.create-table", SettingValues.text(v, "dynamodb.create-table").orElse("false")),
        SettingValues.text(v, "dynamodb.access-key-id"), SettingValues.text(v, "dynamodb.secret-access-key"));
    RegistryBackend registry = RegistryBackend.parse(SettingValues.text(v, "registry.backend").orElse("rocksdb"));
    return new StorageSettings(s3, registry, dynamoDb);
  }

  /**
   * The data root lake uses: an {@code s3://bucket/prefix} URI as given (checked), or a local directory made
   * absolute ({@code <dataDir>/tables} when none is configured).
   *
   * @throws IllegalArgumentException for another scheme or an {@code s3://} URI without a bucket
   */
  public static String dataRoot(Optional<String> configured, Path dataDir) {
    Optional<String> root = configured.map(String::strip).filter(s -> !s.isEmpty());
    if (root.isEmpty()) {
      return dataDir.resolve("tables").toString();
    }
    String r = root.get();
    if (S3Uri.isS3(r)) {
      try {
        S3Uri.parse(r);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("data.root = '" + r + "': " + e.getMessage());
      }
      return "s3://" + r.substring("s3://".length());
    }
    int scheme = r.indexOf("://");
    if (scheme > 0 && !r.toLowerCase(Locale.ROOT).startsWith("file://")) {
      throw new IllegalArgumentException("data.root = '" + r + "' uses a storage lake does not support: give a local "
          + "directory or s3://bucket/prefix/");
    }
    if (scheme > 0) {
      return Path.of(java.net.URI.create(r)).toAbsolutePath().normalize().toString();
    }
    return Path.of(r).toAbsolutePath().normalize().toString();
  }
}
