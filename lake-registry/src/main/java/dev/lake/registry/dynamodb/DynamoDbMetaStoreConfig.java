package dev.lake.registry.dynamodb;

import dev.lake.registry.support.RetryPolicy;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Configuration of {@link DynamoDbMetaStore}.
 *
 * @param tableName the DynamoDB table holding the whole registry (string keys {@code pk} HASH, {@code sk} RANGE)
 * @param createTableIfMissing create the table (on-demand billing) when it does not exist; otherwise a missing
 *     table fails {@link DynamoDbMetaStore#open} with a message saying how to create it
 * @param retry attempts and backoff for throttling, transaction conflicts, 5xx answers and lost connections
 */
public record DynamoDbMetaStoreConfig(String tableName, boolean createTableIfMissing, RetryPolicy retry) {
  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z0-9_.-]{3,255}");

  public DynamoDbMetaStoreConfig {
    Objects.requireNonNull(tableName, "tableName");
    Objects.requireNonNull(retry, "retry");
    if (!TABLE_NAME.matcher(tableName).matches()) {
      throw new IllegalArgumentException("'" + tableName + "' is not a DynamoDB table name: use 3 to 255 letters,"
          + " digits, '_', '-' or '.'");
    }
  }

  /** The table {@code tableName}, which must exist, with {@link RetryPolicy#defaults()}. */
  public static DynamoDbMetaStoreConfig of(String tableName) {
    return new DynamoDbMetaStoreConfig(tableName, false, RetryPolicy.defaults());
  }

  public DynamoDbMetaStoreConfig withCreateTableIfMissing(boolean create) {
    return new DynamoDbMetaStoreConfig(tableName, create, retry);
  }

  public DynamoDbMetaStoreConfig withRetry(RetryPolicy newRetry) {
    return new DynamoDbMetaStoreConfig(tableName, createTableIfMissing, newRetry);
  }
}
