package dev.lake.registry.dynamodb;

import dev.lake.registry.RegistryUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Start-up checks of the registry table: it exists (or is created, if allowed), has the key schema lake needs,
 * is active, and holds a layout this version reads.
 */
final class DynamoTableSetup {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoTableSetup.class);
  static final String LAYOUT_VERSION = "1";
  private static final Duration ACTIVE_TIMEOUT = Duration.ofSeconds(120);
  private static final List<KeySchemaElement> KEY_SCHEMA = List.of(
      KeySchemaElement.builder().attributeName(DynamoItems.PK).keyType(KeyType.HASH).build(),
      KeySchemaElement.builder().attributeName(DynamoItems.SK).keyType(KeyType.RANGE).build());

  private DynamoTableSetup() {}

  static void ensure(DynamoAccess access, boolean createIfMissing) {
    TableDescription table = describe(access).orElseGet(() -> create(access, createIfMissing));
    if (!KEY_SCHEMA.equals(table.keySchema())) {
      throw new RegistryUnavailableException("DynamoDB table " + access.table + " has key schema "
          + table.keySchema() + " but the lake registry needs pk (HASH, string) and sk (RANGE, string): point "
          + "lake at its own table", null);
    }
    waitUntilActive(access, table);
    checkLayout(access);
  }

  private static Optional<TableDescription> describe(DynamoAccess access) {
    try {
      return Optional.of(access.call("describe registry table",
          () -> access.client.describeTable(r -> r.tableName(access.table)).table()));
    } catch (RegistryUnavailableException e) {
      if (e.getCause() instanceof ResourceNotFoundException) return Optional.empty();
      throw e;
    }
  }

  private static TableDescription create(DynamoAccess access, boolean createIfMissing) {
    if (!createIfMissing) {
      throw new RegistryUnavailableException("the DynamoDB registry table " + access.table + " does not exist and "
          + "lake may not create it: create it (string keys pk HASH and sk RANGE, on-demand billing) or enable "
          + "table creation in the registry configuration", null);
    }
    try {
      TableDescription created = access.call("create registry table", () -> access.client.createTable(r -> r
          .tableName(access.table)
          .attributeDefinitions(
              AttributeDefinition.builder().attributeName(DynamoItems.PK).attributeType(ScalarAttributeType.S).build(),
              AttributeDefinition.builder().attributeName(DynamoItems.SK).attributeType(ScalarAttributeType.S).build())
          .keySchema(KEY_SCHEMA)
          .billingMode(BillingMode.PAY_PER_REQUEST)).tableDescription());
      LOG.info("registry table created table={}", access.table);
      return created;
    } catch (RegistryUnavailableException e) {
      if (!(e.getCause() instanceof ResourceInUseException)) throw e;
      LOG.info("registry table was created concurrently table={}", access.table);
      return describe(access).orElseThrow(() -> new RegistryUnavailableException(
          "DynamoDB table " + access.table + " was reported as being created but cannot be described", e));
    }
  }

  private static void waitUntilActive(DynamoAccess access, TableDescription table) {
    long deadline = System.nanoTime() + ACTIVE_TIMEOUT.toNanos();
    TableDescription current = table;
    while (current.tableStatus() != TableStatus.ACTIVE) {
      if (System.nanoTime() > deadline) {
        throw new RegistryUnavailableException("DynamoDB table " + access.table + " is still "
            + current.tableStatusAsString() + " after " + ACTIVE_TIMEOUT.toSeconds() + " s; retry when it is ACTIVE",
            null);
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RegistryUnavailableException("interrupted while waiting for table " + access.table, e);
      }
      current = describe(access).orElseThrow(() -> new RegistryUnavailableException(
          "DynamoDB table " + access.table + " disappeared while lake waited for it to become ACTIVE", null));
    }
  }

  private static void checkLayout(DynamoAccess access) {
    var stored = access.get("read registry layout", DynamoItems.formatKey());
    if (stored.isEmpty()) {
      var item = new java.util.HashMap<>(DynamoItems.formatKey());
      item.put("layout", DynamoItems.s(LAYOUT_VERSION));
      try {
        access.call("write registry layout", () -> access.client.putItem(r -> r.tableName(access.table).item(item)
            .conditionExpression("attribute_not_exists(#pk)").expressionAttributeNames(Map.of("#pk", DynamoItems.PK))));
      } catch (RegistryUnavailableException e) {
        if (!(e.getCause() instanceof ConditionalCheckFailedException)) throw e;
        LOG.debug("registry layout written concurrently table={}", access.table);
      }
      stored = access.get("read registry layout", DynamoItems.formatKey());
    }
    String layout = stored.map(i -> i.get("layout")).map(v -> v.s()).orElse("?");
    if (!LAYOUT_VERSION.equals(layout)) {
      throw new RegistryUnavailableException("the DynamoDB registry table " + access.table + " has layout " + layout
          + ", this server reads layout " + LAYOUT_VERSION + ": run the matching lake version", null);
    }
  }
}
