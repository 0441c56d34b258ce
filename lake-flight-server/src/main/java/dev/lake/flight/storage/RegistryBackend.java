package dev.lake.flight.storage;

import java.util.Locale;

/** Which registry a node uses ({@code registry.backend}). */
public enum RegistryBackend {
  /** Embedded RocksDB under {@code data.dir/registry}: one node. */
  ROCKSDB,
  /** A DynamoDB table shared by every node of a cluster. */
  DYNAMODB;

  /** Parses {@code rocksdb} or {@code dynamodb} (any case). */
  public static RegistryBackend parse(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "rocksdb" -> ROCKSDB;
      case "dynamodb" -> DYNAMODB;
      default -> throw new IllegalArgumentException("registry.backend = '" + text + "' is not a registry: use "
          + "rocksdb (one node, embedded) or dynamodb (a cluster)");
    };
  }

  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }
}
