package dev.lake.flight.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.MetaStore;
import dev.lake.registry.dynamodb.Dynoxide;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** The DynamoDB registry checks and opening, against a real dynoxide. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DynamoDbStartupCheckTest {
  @TempDir
  Path dataDir;

  private Dynoxide dynamoDb;

  @BeforeAll
  void start() {
    dynamoDb = Dynoxide.start();
  }

  @AfterAll
  void stop() {
    dynamoDb.close();
  }

  @Test
  @SuppressWarnings("unchecked") // the SDK's Consumer<Builder>... parameters are not @SafeVarargs
  void aTableWithAnotherKeySchemaIsRefused() {
    String table = "other-" + UUID.randomUUID();
    try (DynamoDbClient client = dynamoDb.newClient()) {
      client.createTable(r -> r.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
          .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
          .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH)));

      assertThatThrownBy(() -> new DynamoDbStartupCheck(client, settings(table, false), "here").run())
          .isInstanceOf(StartupCheckException.class)
          .hasMessageContaining("has the key schema [id HASH (S)]")
          .hasMessageContaining("needs pk HASH (S), sk RANGE (S)")
          .hasMessageContaining("dynamodb.table");
    }
  }

  @Test
  void registryIsCreatedWhenAllowedAndReopenedWithoutIt() {
    String table = "lake-" + UUID.randomUUID();
    StorageSettings create = storage(settings(table, true));
    try (MetaStore store = Registries.open(create, dataDir)) {
      assertThat(store.describe()).isEqualTo("dynamodb:" + table);
    }
    try (MetaStore store = Registries.open(storage(settings(table, false)), dataDir)) {
      assertThat(store.lease()).isEmpty();
    }
  }

  @Test
  void unreachableDynamoDbNamesTheEndpointKey() {
    DynamoDbSettings gone = new DynamoDbSettings("lake-x", Optional.of(java.net.URI.create("http://127.0.0.1:1")),
        Optional.of("us-east-1"), false, Optional.of("k"), Optional.of("s"));

    assertThatThrownBy(() -> Registries.open(storage(gone), dataDir))
        .isInstanceOf(StartupCheckException.class)
        .hasMessageStartingWith("cannot reach DynamoDB (endpoint http://127.0.0.1:1)")
        .hasMessageContaining("Check dynamodb.endpoint, dynamodb.region");
  }

  private DynamoDbSettings settings(String table, boolean create) {
    return new DynamoDbSettings(table, Optional.of(dynamoDb.endpoint()), Optional.empty(), create,
        Optional.of("lake"), Optional.of("lake"));
  }

  private static StorageSettings storage(DynamoDbSettings d) {
    return new StorageSettings(StorageSettings.fromKeys(Map.of()).s3(), RegistryBackend.DYNAMODB, d);
  }
}
