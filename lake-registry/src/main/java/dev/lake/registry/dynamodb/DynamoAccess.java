package dev.lake.registry.dynamodb;

import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.support.RetryPolicy;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Calls against the registry table with bounded retries and one error mapping: every correctness-bearing read is
 * strongly consistent ({@code ConsistentRead=true}); anything that cannot reach an answer becomes
 * {@link RegistryUnavailableException}, never an empty result. After {@link #close()} every call is unavailable.
 */
final class DynamoAccess implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoAccess.class);

  final DynamoDbClient client;
  final String table;
  final RetryPolicy retry;
  private volatile boolean closed;

  DynamoAccess(DynamoDbClient client, String table, RetryPolicy retry) {
    this.client = client;
    this.table = table;
    this.retry = retry;
  }

  /** A consistent GetItem. */
  Optional<Map<String, AttributeValue>> get(String what, Map<String, AttributeValue> key) {
    return call(what, () -> {
      var response = client.getItem(r -> r.tableName(table).key(key).consistentRead(true));
      return response.hasItem() && !response.item().isEmpty() ? Optional.of(response.item()) : Optional.empty();
    });
  }

  /**
   * Items of partition {@code pk} whose sort key begins with {@code skPrefix} (if given), in sort-key order,
   * after {@code exclusiveStartSk} (if given), at most {@code limit}, plus whether more exist.
   */
  record Slice(List<Map<String, AttributeValue>> items, boolean more) {}

  Slice query(String what, String pk, Optional<String> skPrefix, Optional<String> exclusiveStartSk, int limit) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = exclusiveStartSk.map(sk -> DynamoItems.key(pk, sk)).orElse(null);
    long wanted = (long) limit + 1;
    do {
      int ask = (int) Math.min(wanted - items.size(), 1000);
      Map<String, AttributeValue> from = start;
      QueryResponse response = call(what, () -> client.query(request(pk, skPrefix, from, ask)));
      items.addAll(response.items());
      start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
          ? response.lastEvaluatedKey() : null;
    } while (start != null && items.size() < wanted);
    boolean more = items.size() > limit;
    return new Slice(more ? List.copyOf(items.subList(0, limit)) : List.copyOf(items), more);
  }

  private QueryRequest request(String pk, Optional<String> skPrefix, Map<String, AttributeValue> start, int limit) {
    Map<String, String> names = new HashMap<>(Map.of("#pk", DynamoItems.PK));
    Map<String, AttributeValue> values = new HashMap<>(Map.of(":pk", DynamoItems.s(pk)));
    String condition = "#pk = :pk";
    if (skPrefix.isPresent()) {
      names.put("#sk", DynamoItems.SK);
      values.put(":prefix", DynamoItems.s(skPrefix.get()));
      condition += " AND begins_with(#sk, :prefix)";
    }
    return QueryRequest.builder().tableName(table).consistentRead(true).keyConditionExpression(condition)
        .expressionAttributeNames(names).expressionAttributeValues(values).exclusiveStartKey(start)
        .limit(limit).build();
  }

  /** Runs an idempotent call, retrying throttling, 5xx answers and connection failures within the policy. */
  <T> T call(String what, Supplier<T> call) {
    RuntimeException last = null;
    for (int attempt = 1; attempt <= retry.maxAttempts(); attempt++) {
      retry.pauseBefore(attempt, what);
      ensureOpen(what);
      try {
        return call.get();
      } catch (ResourceNotFoundException e) {
        throw tableMissing(what, e);
      } catch (DynamoDbException e) {
        if (!throttled(e) && e.statusCode() < 500) throw unavailable(what, e);
        last = e;
      } catch (SdkClientException e) {
        last = e;
      } catch (RuntimeException e) {
        if (closed) throw closedDuring(what, e);
        throw e;
      }
      LOG.debug("registry call retry op={} attempt={} error={}", what, attempt, last.toString());
    }
    throw unavailable(what, last);
  }

  boolean isClosed() {
    return closed;
  }

  void ensureOpen(String what) {
    if (closed) {
      throw new RegistryUnavailableException(
          what + " failed: the DynamoDB registry " + table + " is closed (the server is shutting down)", null);
    }
  }

  RegistryUnavailableException closedDuring(String what, Exception e) {
    return new RegistryUnavailableException(
        what + " failed: the DynamoDB registry " + table + " was closed during the call", e);
  }

  RegistryUnavailableException unavailable(String what, Exception e) {
    if (e instanceof ResourceNotFoundException rnf) return tableMissing(what, rnf);
    String detail = e == null ? "no answer" : e.getClass().getSimpleName() + ": " + e.getMessage();
    return new RegistryUnavailableException(what + " failed: the DynamoDB registry table " + table
        + " could not be used after " + retry.maxAttempts() + " attempts (" + detail + "); check the endpoint, "
        + "credentials and throttling, then retry", e);
  }

  RegistryUnavailableException tableMissing(String what, ResourceNotFoundException e) {
    return new RegistryUnavailableException(what + " failed: the DynamoDB table " + table + " does not exist "
        + "(" + e.getMessage() + "); create it (string keys pk HASH, sk RANGE) or allow lake to create it", e);
  }

  /** Throttling or a transaction conflict: the request was refused and wrote nothing. */
  static boolean throttled(DynamoDbException e) {
    String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    return e.isThrottlingException()
        || "ProvisionedThroughputExceededException".equals(code)
        || "RequestLimitExceeded".equals(code)
        || "ThrottlingException".equals(code)
        || "TransactionConflictException".equals(code);
  }

  /** True when the request certainly never reached the server (connection refused, unknown host). */
  static boolean neverSent(SdkClientException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException) return true;
    }
    return false;
  }

  /** How many attempts the SDK itself made for the call that failed with {@code e}. */
  static int attempts(SdkException e) {
    Integer n = e.numAttempts();
    return n == null ? 1 : n;
  }

  @Override
  public void close() {
    closed = true;
    client.close();
  }
}
