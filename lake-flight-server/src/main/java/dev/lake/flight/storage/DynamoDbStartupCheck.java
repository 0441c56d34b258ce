package dev.lake.flight.storage;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Checks at start-up that the DynamoDB registry table can be used: DynamoDB is reachable with these credentials,
 * the table exists (or lake may create it: {@code dynamodb.create-table}) and its key schema is lake's
 * ({@code pk} HASH and {@code sk} RANGE, both strings). Each failure says what to do and which key to set.
 */
public final class DynamoDbStartupCheck {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoDbStartupCheck.class);

  private final DynamoDbClient client;
  private final DynamoDbSettings settings;
  private final String where;

  /** @param where how DynamoDB is reached, for messages ({@code http://127.0.0.1:8000} or {@code region us-east-1}) */
  public DynamoDbStartupCheck(DynamoDbClient client, DynamoDbSettings settings, String where) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.where = Objects.requireNonNull(where, "where");
  }

  /** Runs the checks; returns normally when the table is usable or will be created. */
  public void run() {
    String table = settings.table();
    TableDescription description;
    try {
      description = client.describeTable(r -> r.tableName(table)).table();
    } catch (ResourceNotFoundException e) {
      if (settings.createTable()) {
        LOG.info("registry table missing, lake will create it table={} dynamodb={}", table, where);
        return;
      }
      throw new StartupCheckException("the DynamoDB registry table '" + table + "' does not exist (" + where + ") and "
          + "dynamodb.create-table is false. Create it: aws dynamodb create-table --table-name " + table
          + " --attribute-definitions AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S"
          + " --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE"
          + " --billing-mode PAY_PER_REQUEST; or set dynamodb.create-table: true (LAKE_DYNAMODB_CREATE_TABLE=true)"
          + " to let lake create it (needs dynamodb:CreateTable); or point dynamodb.table at the existing table", e);
    } catch (SdkException e) {
      throw failure(e);
    }
    checkKeySchema(description);
    LOG.info("DynamoDB start-up checks passed table={} dynamodb={} status={}", table, where,
        description.tableStatusAsString());
  }

  private void checkKeySchema(TableDescription table) {
    Map<String, String> keys = table.keySchema().stream()
        .collect(Collectors.toMap(KeySchemaElement::attributeName, KeySchemaElement::keyTypeAsString));
    Map<String, String> types = table.attributeDefinitions().stream()
        .collect(Collectors.toMap(AttributeDefinition::attributeName, AttributeDefinition::attributeTypeAsString));
    boolean lakes = keys.equals(Map.of("pk", "HASH", "sk", "RANGE"))
        && "S".equals(types.get("pk")) && "S".equals(types.get("sk"));
    if (!lakes) {
      String found = table.keySchema().stream().map(k -> k.attributeName() + " " + k.keyTypeAsString() + " ("
          + types.getOrDefault(k.attributeName(), "?") + ")").collect(Collectors.joining(", "));
      throw new StartupCheckException("the DynamoDB table '" + settings.table() + "' (" + where + ") has the key "
          + "schema [" + found + "], but the lake registry needs pk HASH (S), sk RANGE (S): it is not a lake "
          + "registry table. Point dynamodb.table at a table of lake's own (a missing one can be created with "
          + "dynamodb.create-table: true)");
    }
  }

  private StartupCheckException failure(SdkException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : SettingValues.brief(e.getMessage());
    if (e instanceof DynamoDbException d && d.awsErrorDetails() != null) {
      String code = d.awsErrorDetails().errorCode() == null ? "" : d.awsErrorDetails().errorCode();
      if (List.of("AccessDeniedException", "AccessDenied").contains(code)) {
        return new StartupCheckException("the credentials may not DescribeTable on the DynamoDB registry table '"
            + settings.table() + "' (" + where + ", " + code + "). Grant dynamodb:DescribeTable and the other "
            + "registry permissions listed in docs/operations.md on this table", e);
      }
      if (List.of("UnrecognizedClientException", "InvalidSignatureException", "ExpiredTokenException",
          "MissingAuthenticationTokenException").contains(code)) {
        return new StartupCheckException("DynamoDB (" + where + ") rejected the credentials (" + code + "). Check "
            + "dynamodb.access-key-id / dynamodb.secret-access-key (or the s3.* keys they default to), or the source "
            + "of the AWS default credential chain", e);
      }
      return new StartupCheckException("describing the DynamoDB registry table '" + settings.table() + "' (" + where
          + ") failed: HTTP " + d.statusCode() + " " + code + ": " + d.awsErrorDetails().errorMessage(), e);
    }
    if (e instanceof SdkClientException && message.toLowerCase(Locale.ROOT).contains("credentials")) {
      return new StartupCheckException("no AWS credentials could be resolved for DynamoDB (" + message + "). Set "
          + "dynamodb.access-key-id and dynamodb.secret-access-key (or s3.*), or provide credentials through the AWS "
          + "default chain", e);
    }
    return new StartupCheckException("cannot reach DynamoDB (" + where + "): " + message + ". Check "
        + "dynamodb.endpoint, dynamodb.region and the network between this node and DynamoDB", e);
  }
}
