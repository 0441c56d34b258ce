package dev.lake.registry.dynamodb;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * Records every item read that is not strongly consistent. dynoxide answers every read consistently, so only the
 * request shows whether {@code ConsistentRead=true} was asked for — as real DynamoDB needs it. The registry
 * reads nothing that is not correctness-bearing, so every GetItem and Query must ask, and nothing may Scan.
 */
public final class ConsistentReadCheck implements ExecutionInterceptor {
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private final AtomicInteger checked = new AtomicInteger();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    if (request instanceof GetItemRequest get) {
      check(Boolean.TRUE.equals(get.consistentRead()), "GetItem " + get.key());
    } else if (request instanceof QueryRequest query) {
      check(Boolean.TRUE.equals(query.consistentRead()), "Query " + query.expressionAttributeValues());
    } else if (request instanceof ScanRequest || request instanceof BatchGetItemRequest) {
      check(false, request.getClass().getSimpleName());
    }
  }

  private void check(boolean consistent, String what) {
    checked.incrementAndGet();
    if (!consistent) violations.add(what);
  }

  /** Reads seen so far. */
  public int checked() {
    return checked.get();
  }

  /** Reads that did not ask for strong consistency. */
  public List<String> violations() {
    return List.copyOf(violations);
  }
}
