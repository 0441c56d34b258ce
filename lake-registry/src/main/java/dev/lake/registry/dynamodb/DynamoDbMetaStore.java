package dev.lake.registry.dynamodb;

import static dev.lake.registry.dynamodb.DynamoItems.n;
import static dev.lake.registry.dynamodb.DynamoItems.s;

import dev.lake.registry.SnapshotPin;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.NodeInfo;
import dev.lake.registry.Page;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.TableExistsException;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import dev.lake.registry.support.Failures;
import dev.lake.registry.support.MutationArguments;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The cluster registry: one DynamoDB table (layout in {@link DynamoItems}).
 *
 * <p>Every mutation is one {@code TransactWriteItems}: a {@code ConditionCheck} on the lease item (holder and
 * term of the fence), the conditional change of the registration ({@code attribute_not_exists} for create,
 * generation and version for commit and drop), and its history item, idempotency item (must not exist) or
 * tombstone. Failures are classified by cancellation reason in {@link DynamoTransactions}. Every read is
 * strongly consistent. The store owns the client and closes it in {@link #close()}; give it a client whose own
 * retries are off or few (the store retries with its {@link DynamoDbMetaStoreConfig#retry()} policy and
 * classifies SDK retries too).
 */
public final class DynamoDbMetaStore implements MetaStore {
  private static final Logger LOG = LoggerFactory.getLogger(DynamoDbMetaStore.class);
  /** Items per transaction besides the lease and target checks (DynamoDB allows 100 in all). */
  private static final int BATCH = 90;

  private final DynamoAccess access;
  private final DynamoTransactions transactions;
  private final String table;

  private DynamoDbMetaStore(DynamoAccess access) {
    this.access = access;
    this.transactions = new DynamoTransactions(access);
    this.table = access.table;
  }

  /**
   * Opens the registry in {@code config.tableName()}: checks (or creates, if allowed) the table and its layout.
   *
   * @throws dev.lake.registry.RegistryUnavailableException when DynamoDB cannot be reached, the table is missing
   *     and may not be created, or it is not a lake registry table
   */
  public static DynamoDbMetaStore open(DynamoDbClient client, DynamoDbMetaStoreConfig config) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(config, "config");
    DynamoAccess access = new DynamoAccess(client, config.tableName(), config.retry());
    try {
      DynamoTableSetup.ensure(access, config.createTableIfMissing());
    } catch (RuntimeException e) {
      access.close();
      throw e;
    }
    LOG.info("registry opened backend=dynamodb table={}", config.tableName());
    return new DynamoDbMetaStore(access);
  }

  @Override
  public Optional<TableRegistration> get(String name) {
    String t = TableNames.normalize(name);
    return access.get("get " + t, DynamoItems.registrationKey(t)).map(DynamoItems::registration);
  }

  @Override
  public Page<TableRegistration> list(Optional<String> startAfter, int limit) {
    Objects.requireNonNull(startAfter, "startAfter");
    MutationArguments.limit(limit);
    DynamoAccess.Slice slice = access.query("list tables", DynamoItems.TABLES, Optional.empty(), startAfter, limit);
    return page(slice, DynamoItems::registration, TableRegistration::name);
  }

  @Override
  public List<VersionRecord> history(String name, String generation) {
    String t = TableNames.normalize(name);
    MutationArguments.generation(generation);
    return access.query("history of " + t, DynamoItems.generationPartition(t, generation),
        Optional.of(DynamoItems.HISTORY_PREFIX), Optional.empty(), Integer.MAX_VALUE).items().stream()
        .map(DynamoItems::history).toList();
  }

  @Override
  public Optional<IdempotencyRecord> idempotencyRecord(String name, String generation, String key) {
    String t = TableNames.normalize(name);
    MutationArguments.generation(generation);
    IdempotencyRecord.validateKey(key);
    return access.get("idempotency key of " + t, DynamoItems.idempotencyKey(t, generation, key))
        .map(DynamoItems::idempotency);
  }

  @Override
  public Page<IdempotencyRecord> idempotencyRecords(
      String name, String generation, Optional<String> startAfter, int limit) {
    String t = TableNames.normalize(name);
    MutationArguments.generation(generation);
    Objects.requireNonNull(startAfter, "startAfter");
    MutationArguments.limit(limit);
    DynamoAccess.Slice slice = access.query("idempotency keys of " + t, DynamoItems.generationPartition(t, generation),
        Optional.of(DynamoItems.KEY_PREFIX), startAfter.map(k -> DynamoItems.KEY_PREFIX + k), limit);
    return page(slice, DynamoItems::idempotency, IdempotencyRecord::key);
  }

  @Override
  public List<Tombstone> tombstones() {
    return access.query("list tombstones", DynamoItems.TOMBSTONES, Optional.empty(), Optional.empty(),
        Integer.MAX_VALUE).items().stream().map(DynamoItems::tombstone).toList();
  }

  @Override
  public Optional<LeaderLease> lease() {
    return access.get("read lease", DynamoItems.leaseKey()).map(DynamoItems::lease);
  }

  @Override
  public List<NodeInfo> nodes() {
    return access.query("list nodes", DynamoItems.NODES, Optional.empty(), Optional.empty(), Integer.MAX_VALUE)
        .items().stream().map(DynamoItems::node).toList();
  }

  @Override
  public void create(LeaseFence fence, TableRegistration registration, Optional<IdempotencyRecord> key) {
    Objects.requireNonNull(fence, "fence");
    MutationArguments.create(registration, key);
    String t = registration.name();
    DynamoMutation m = new DynamoMutation("create of table '" + t + "'", table).checkLease(fence);
    m.putTarget(DynamoItems.registration(registration, m.token()), "attribute_not_exists(#pk)", Map.of(), Map.of())
        .onTargetFailed(current -> new TableExistsException(t))
        .put(DynamoItems.history(registration, m.token()))
        .recognisedByToken(DynamoItems.historyKey(t, registration.generation(), registration.version()));
    key.ifPresent(k -> m.putNewKey(DynamoItems.idempotency(k, m.token())));
    transactions.run(m);
    LOG.info("table registered op=create table={} generation={} version={} term={}", t,
        registration.generation(), registration.version(), fence.term());
  }

  @Override
  public void commit(LeaseFence fence, TableRegistration expected, TableRegistration next,
      Optional<IdempotencyRecord> key) {
    Objects.requireNonNull(fence, "fence");
    MutationArguments.commit(expected, next, key);
    String t = next.name();
    DynamoMutation m = new DynamoMutation("commit of table '" + t + "'", table).checkLease(fence);
    m.putTarget(DynamoItems.registration(next, m.token()), "#g = :g AND #v = :v", snapshotNames(),
            snapshotValues(expected))
        .onTargetFailed(current -> Failures.registrationMoved("commit", expected,
            current.map(DynamoItems::registration)))
        .put(DynamoItems.history(next, m.token()))
        .recognisedByToken(DynamoItems.historyKey(t, next.generation(), next.version()));
    key.ifPresent(k -> m.putNewKey(DynamoItems.idempotency(k, m.token())));
    transactions.run(m);
    LOG.info("table registered op=commit table={} generation={} version={} previous={} term={}", t,
        next.generation(), next.version(), expected.version(), fence.term());
  }

  @Override
  public void drop(LeaseFence fence, TableRegistration expected, Tombstone tombstone) {
    Objects.requireNonNull(fence, "fence");
    MutationArguments.drop(expected, tombstone);
    String t = expected.name();
    DynamoMutation m = new DynamoMutation("drop of table '" + t + "'", table).checkLease(fence);
    m.deleteTarget(DynamoItems.registrationKey(t), "#g = :g AND #v = :v", snapshotNames(), snapshotValues(expected))
        .onTargetFailed(current -> Failures.registrationMoved("drop", expected,
            current.map(DynamoItems::registration)))
        .put(DynamoItems.tombstone(tombstone, m.token()))
        .recognisedByToken(DynamoItems.tombstoneKey(t, tombstone.generation()));
    transactions.run(m);
    LOG.info("table dropped table={} generation={} version={} term={}", t, expected.generation(),
        expected.version(), fence.term());
  }

  @Override
  public void deleteTombstone(LeaseFence fence, Tombstone tombstone) {
    Objects.requireNonNull(fence, "fence");
    Objects.requireNonNull(tombstone, "tombstone");
    Map<String, AttributeValue> key = DynamoItems.tombstoneKey(tombstone.name(), tombstone.generation());
    DynamoMutation m = new DynamoMutation("deletion of the tombstone of '" + tombstone.name() + "'", table)
        .checkLease(fence).delete(key);
    transactions.run(m.recognisedBy(a -> a.get(m.what() + " (verify)", key).isEmpty()));
  }

  @Override
  public void deleteHistory(LeaseFence fence, String name, String generation, Collection<Long> versions) {
    Objects.requireNonNull(fence, "fence");
    String t = MutationArguments.retention(name, generation, versions);
    List<Long> distinct = List.copyOf(new LinkedHashSet<>(versions));
    if (distinct.isEmpty()) return;
    long newest = distinct.stream().mapToLong(Long::longValue).max().orElseThrow();
    for (List<Long> batch : batches(distinct)) {
      DynamoMutation m = new DynamoMutation("history expiry of '" + t + "'", table).checkLease(fence);
      m.checkTarget(DynamoItems.registrationKey(t), "attribute_not_exists(#pk) OR #g <> :g OR #v > :v",
              snapshotNames(), Map.of(":g", s(generation), ":v", n(newest)))
          .onTargetFailed(current -> current.map(DynamoItems::registration)
              .map(r -> Failures.historyStillCurrent(t, generation, newest, r.version()))
              .orElseGet(() -> new RegistryConflictException("history expiry of '" + t + "' raced a change of "
                  + "its registration; nothing was deleted, re-read and retry")));
      List<Map<String, AttributeValue>> keys = batch.stream()
          .map(v -> DynamoItems.historyKey(t, generation, v)).toList();
      keys.forEach(m::delete);
      transactions.run(m.recognisedBy(allAbsent(m.what(), keys)));
    }
  }

  @Override
  public void deleteIdempotencyRecords(LeaseFence fence, String name, String generation, Collection<String> keys) {
    Objects.requireNonNull(fence, "fence");
    String t = MutationArguments.retention(name, generation, keys);
    for (List<String> batch : batches(List.copyOf(new LinkedHashSet<>(keys)))) {
      DynamoMutation m = new DynamoMutation("idempotency key expiry of '" + t + "'", table).checkLease(fence);
      List<Map<String, AttributeValue>> itemKeys = batch.stream()
          .map(k -> DynamoItems.idempotencyKey(t, generation, IdempotencyRecord.validateKey(k))).toList();
      itemKeys.forEach(m::delete);
      transactions.run(m.recognisedBy(allAbsent(m.what(), itemKeys)));
    }
  }

  @Override
  public void writeLease(Optional<LeaderLease> expected, LeaderLease next) {
    MutationArguments.lease(expected, next);
    DynamoMutation m = new DynamoMutation("lease write", table);
    Map<String, AttributeValue> item = DynamoItems.lease(next, m.token());
    if (expected.isEmpty()) {
      m.putTarget(item, "attribute_not_exists(#pk)", Map.of(), Map.of());
    } else {
      m.putTarget(item, "#holder = :h AND #term = :t", Map.of("#holder", "holder", "#term", "term"),
          Map.of(":h", s(expected.get().holderId()), ":t", n(expected.get().term())));
    }
    m.onTargetFailed(current -> Failures.leaseMoved(expected, current.map(DynamoItems::lease)))
        .recognisedByToken(DynamoItems.leaseKey());
    transactions.run(m);
    if (expected.isPresent() && expected.get().fence().equals(next.fence())) {
      // a renewal (same holder and term, a later expiry): every lease.renew-interval, so not at INFO
      LOG.debug("lease renewed holder={} term={} expiresAt={} registry={}", next.holderId(), next.term(),
          next.expiresAt(), describe());
    } else {
      LOG.info("lease written holder={} term={} previous={} registry={}", next.holderId(), next.term(),
          expected.map(l -> l.holderId() + "@" + l.term()).orElse("none"), describe());
    }
  }

  @Override
  public void putPin(SnapshotPin pin) {
    Objects.requireNonNull(pin, "pin");
    access.call("put snapshot pin " + pin.id(),
        () -> access.client.putItem(r -> r.tableName(table).item(DynamoItems.pin(pin))));
  }

  @Override
  public Optional<SnapshotPin> pin(String id) {
    Objects.requireNonNull(id, "id");
    return access.get("read snapshot pin", DynamoItems.pinKey(id)).map(DynamoItems::pin);
  }

  @Override
  public List<SnapshotPin> pins() {
    return access.query("list snapshot pins", DynamoItems.PINS, Optional.empty(), Optional.empty(),
        Integer.MAX_VALUE).items().stream().map(DynamoItems::pin).toList();
  }

  @Override
  public void deletePin(String id) {
    Objects.requireNonNull(id, "id");
    access.call("delete snapshot pin " + id,
        () -> access.client.deleteItem(r -> r.tableName(table).key(DynamoItems.pinKey(id))));
  }

  @Override
  public void heartbeat(NodeInfo node) {
    Objects.requireNonNull(node, "node");
    access.call("heartbeat of " + node.nodeId(),
        () -> access.client.putItem(r -> r.tableName(table).item(DynamoItems.node(node))));
  }

  @Override
  public String describe() {
    return "dynamodb:" + table;
  }

  @Override
  public void close() {
    access.close();
  }

  private static Map<String, String> snapshotNames() {
    return Map.of("#g", "generation", "#v", "version");
  }

  private static Map<String, AttributeValue> snapshotValues(TableRegistration expected) {
    return Map.of(":g", s(expected.generation()), ":v", n(expected.version()));
  }

  private static java.util.function.Predicate<DynamoAccess> allAbsent(
      String what, List<Map<String, AttributeValue>> keys) {
    return a -> keys.stream().allMatch(k -> a.get(what + " (verify)", k).isEmpty());
  }

  private static <T> List<List<T>> batches(List<T> all) {
    List<List<T>> batches = new ArrayList<>();
    for (int i = 0; i < all.size(); i += BATCH) batches.add(all.subList(i, Math.min(all.size(), i + BATCH)));
    return batches;
  }

  private static <T> Page<T> page(DynamoAccess.Slice slice, Function<Map<String, AttributeValue>, T> decode,
      Function<T, String> cursor) {
    List<T> items = slice.items().stream().map(decode).toList();
    return new Page<>(items, slice.more() && !items.isEmpty()
        ? Optional.of(cursor.apply(items.get(items.size() - 1))) : Optional.empty());
  }
}
