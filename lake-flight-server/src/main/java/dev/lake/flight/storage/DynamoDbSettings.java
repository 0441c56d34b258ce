package dev.lake.flight.storage;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * The DynamoDB registry table of a cluster (keys {@code dynamodb.*} in docs/config.md). {@link #toString()} never
 * shows the secret key.
 *
 * @param table the table's name
 * @param endpoint a DynamoDB-compatible endpoint (dynoxide, LocalStack); empty for AWS DynamoDB
 * @param region the table's region; empty: {@code s3.region}, else {@code us-east-1} with an endpoint, else the
 *     AWS default region chain
 * @param createTable create the table (on-demand billing) when it is missing
 * @param accessKeyId a static access key id; empty: the S3 static keys if set, else the default chain
 * @param secretAccessKey its secret (given together with the key id)
 */
public record DynamoDbSettings(String table, Optional<URI> endpoint, Optional<String> region, boolean createTable,
    Optional<String> accessKeyId, Optional<String> secretAccessKey) {
  public static final String DEFAULT_TABLE = "lake-registry";

  public DynamoDbSettings {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    if (!table.matches("[A-Za-z0-9_.-]{3,255}")) {
      throw new IllegalArgumentException("dynamodb.table = '" + table + "' is not a DynamoDB table name: use 3 to "
          + "255 letters, digits, '_', '-' or '.'");
    }
    endpoint.ifPresent(e -> SettingValues.checkHttpEndpoint("dynamodb.endpoint", e));
    SettingValues.checkKeyPair("dynamodb", accessKeyId, secretAccessKey);
  }

  public static DynamoDbSettings defaults() {
    return new DynamoDbSettings(DEFAULT_TABLE, Optional.empty(), Optional.empty(), false, Optional.empty(),
        Optional.empty());
  }

  @Override
  public String toString() {
    return "DynamoDbSettings[table=" + table + ", endpoint=" + endpoint.map(URI::toString).orElse("AWS")
        + ", region=" + region.orElse("(default)") + ", createTable=" + createTable + ", credentials="
        + (accessKeyId.isPresent() ? "static" : "s3 keys or default chain") + "]";
  }
}
