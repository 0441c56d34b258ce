package dev.lake.flight.storage;

import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistryException;
import dev.lake.registry.dynamodb.DynamoDbMetaStore;
import dev.lake.registry.dynamodb.DynamoDbMetaStoreConfig;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Opens the registry {@code registry.backend} names: RocksDB under the data directory, or the DynamoDB table. */
public final class Registries {
  private Registries() {}

  /**
   * Opens the configured registry. For DynamoDB: builds the client (credentials: the {@code dynamodb.*} keys, else
   * the {@code s3.*} keys, else the AWS default chain), runs the {@link DynamoDbStartupCheck}, then opens the
   * store (which creates the table when {@code dynamodb.create-table} allows it and checks its layout). The store
   * owns the client.
   *
   * @throws StartupCheckException when DynamoDB is unreachable, the table is missing and may not be created, or
   *     it is not a lake registry table
   */
  public static MetaStore open(StorageSettings settings, Path dataDir) {
    Objects.requireNonNull(settings, "settings");
    return switch (settings.registry()) {
      case ROCKSDB -> RocksDbMetaStore.open(dataDir.resolve("registry"));
      case DYNAMODB -> openDynamoDb(settings);
    };
  }

  private static MetaStore openDynamoDb(StorageSettings settings) {
    DynamoDbSettings d = settings.dynamoDb();
    Optional<String> configuredRegion = d.region().or(() -> settings.s3().region());
    Region region = AwsClients.region("dynamodb.region", configuredRegion, d.endpoint());
    AwsCredentialsProvider credentials = d.accessKeyId().isPresent()
        ? AwsClients.credentials(d.accessKeyId(), d.secretAccessKey())
        : AwsClients.credentials(settings.s3().accessKeyId(), settings.s3().secretAccessKey());
    DynamoDbClient client = AwsClients.dynamoDb(d, region, credentials);
    String where = d.endpoint().map(e -> "endpoint " + e).orElse("region " + region.id());
    try {
      new DynamoDbStartupCheck(client, d, where).run();
      return DynamoDbMetaStore.open(client,
          DynamoDbMetaStoreConfig.of(d.table()).withCreateTableIfMissing(d.createTable()));
    } catch (RegistryException e) {
      client.close();
      throw new StartupCheckException("opening the DynamoDB registry table '" + d.table() + "' (" + where
          + ") failed: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }
}
