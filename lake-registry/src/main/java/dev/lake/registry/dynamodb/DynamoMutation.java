package dev.lake.registry.dynamodb;

import static dev.lake.registry.dynamodb.DynamoItems.s;

import dev.lake.registry.LeaseFence;
import dev.lake.registry.RegistryConflictException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * One registry mutation as one {@code TransactWriteItems}: its items, the role of each (so a cancellation reason
 * can be classified), what a failed condition on the target item means, and how to recognise this mutation's own
 * write on a re-read. Every written item carries {@link #token()} (also the request's ClientRequestToken).
 */
final class DynamoMutation {
  enum Role { LEASE, TARGET, KEY, OTHER }

  /** One item of the transaction. */
  record Entry(Role role, Map<String, AttributeValue> key, TransactWriteItem item) {}

  private final String what;
  private final String table;
  private final String token = UUID.randomUUID().toString();
  private final List<Entry> entries = new ArrayList<>();
  private LeaseFence fence;
  private Function<Optional<Map<String, AttributeValue>>, RegistryConflictException> onTargetFailed =
      current -> new RegistryConflictException("conflict");
  private Predicate<DynamoAccess> ours = access -> false;

  DynamoMutation(String what, String table) {
    this.what = what;
    this.table = table;
  }

  /** A ConditionCheck that the lease item names the fenced holder at the fenced term. */
  DynamoMutation checkLease(LeaseFence leaseFence) {
    this.fence = leaseFence;
    Map<String, AttributeValue> key = DynamoItems.leaseKey();
    Map<String, AttributeValue> values = Map.of(":h", s(leaseFence.holderId()), ":t", DynamoItems.n(leaseFence.term()));
    ConditionCheck check = ConditionCheck.builder().tableName(table).key(key)
        .conditionExpression("#holder = :h AND #term = :t")
        .expressionAttributeNames(Map.of("#holder", "holder", "#term", "term")).expressionAttributeValues(values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
    entries.add(new Entry(Role.LEASE, key, TransactWriteItem.builder().conditionCheck(check).build()));
    return this;
  }

  /** A conditional Put of the target item; {@code condition} uses {@code #pk} and the given names/values. */
  DynamoMutation putTarget(Map<String, AttributeValue> item, String condition, Map<String, String> names,
      Map<String, AttributeValue> values) {
    Put put = Put.builder().tableName(table).item(item).conditionExpression(condition)
        .expressionAttributeNames(withPk(condition, names)).expressionAttributeValues(values.isEmpty() ? null : values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
    entries.add(new Entry(Role.TARGET, keyOf(item), TransactWriteItem.builder().put(put).build()));
    return this;
  }

  /** A conditional Delete of the target item. */
  DynamoMutation deleteTarget(Map<String, AttributeValue> key, String condition, Map<String, String> names,
      Map<String, AttributeValue> values) {
    Delete delete = Delete.builder().tableName(table).key(key).conditionExpression(condition)
        .expressionAttributeNames(withPk(condition, names)).expressionAttributeValues(values.isEmpty() ? null : values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
    entries.add(new Entry(Role.TARGET, key, TransactWriteItem.builder().delete(delete).build()));
    return this;
  }

  /** A ConditionCheck on the target item (which this mutation does not write). */
  DynamoMutation checkTarget(Map<String, AttributeValue> key, String condition, Map<String, String> names,
      Map<String, AttributeValue> values) {
    ConditionCheck check = ConditionCheck.builder().tableName(table).key(key).conditionExpression(condition)
        .expressionAttributeNames(withPk(condition, names)).expressionAttributeValues(values.isEmpty() ? null : values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
    entries.add(new Entry(Role.TARGET, key, TransactWriteItem.builder().conditionCheck(check).build()));
    return this;
  }

  /** A Put of an idempotency record that must not exist yet. */
  DynamoMutation putNewKey(Map<String, AttributeValue> item) {
    Put put = Put.builder().tableName(table).item(item).conditionExpression("attribute_not_exists(#pk)")
        .expressionAttributeNames(Map.of("#pk", DynamoItems.PK))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build();
    entries.add(new Entry(Role.KEY, keyOf(item), TransactWriteItem.builder().put(put).build()));
    return this;
  }

  /** An unconditional Put (history item, tombstone). */
  DynamoMutation put(Map<String, AttributeValue> item) {
    Put put = Put.builder().tableName(table).item(item).build();
    entries.add(new Entry(Role.OTHER, keyOf(item), TransactWriteItem.builder().put(put).build()));
    return this;
  }

  /** An unconditional Delete. */
  DynamoMutation delete(Map<String, AttributeValue> key) {
    Delete delete = Delete.builder().tableName(table).key(key).build();
    entries.add(new Entry(Role.OTHER, key, TransactWriteItem.builder().delete(delete).build()));
    return this;
  }

  /** What a failed condition on the target item means, given the item as it is (if it exists). */
  DynamoMutation onTargetFailed(
      Function<Optional<Map<String, AttributeValue>>, RegistryConflictException> meaning) {
    this.onTargetFailed = meaning;
    return this;
  }

  /** How a consistent re-read recognises that this mutation was applied. */
  DynamoMutation recognisedBy(Predicate<DynamoAccess> applied) {
    this.ours = applied;
    return this;
  }

  /** Recognised when the item at {@code key} carries this mutation's token. */
  DynamoMutation recognisedByToken(Map<String, AttributeValue> key) {
    return recognisedBy(access -> token.equals(DynamoItems.txn(access.get(what + " (verify)", key).orElse(null))));
  }

  String what() {
    return what;
  }

  String token() {
    return token;
  }

  Optional<LeaseFence> fence() {
    return Optional.ofNullable(fence);
  }

  List<Entry> entries() {
    return List.copyOf(entries);
  }

  RegistryConflictException targetFailed(Optional<Map<String, AttributeValue>> current) {
    return onTargetFailed.apply(current);
  }

  boolean appliedAccordingTo(DynamoAccess access) {
    return ours.test(access);
  }

  /** DynamoDB refuses unused expression names: add {@code #pk} only when the condition uses it. */
  private static Map<String, String> withPk(String condition, Map<String, String> names) {
    Map<String, String> all = new HashMap<>(names);
    if (condition.contains("#pk")) all.put("#pk", DynamoItems.PK);
    return all.isEmpty() ? null : all;
  }

  private static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
    return Map.of(DynamoItems.PK, item.get(DynamoItems.PK), DynamoItems.SK, item.get(DynamoItems.SK));
  }
}
