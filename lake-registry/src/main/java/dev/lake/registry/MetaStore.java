package dev.lake.registry;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The registry SPI: the one authority for each table's current registration.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Reads are strongly consistent</b>: a read issued after a mutation returned sees it.
 *   <li><b>Every mutation is one atomic write</b> that includes its side items (history item, idempotency item,
 *       tombstone) and a <b>lease check</b>: the lease item must name {@code fence.holderId()} at
 *       {@code fence.term()}. Either everything is written or nothing is.
 *   <li>A mutation that finds a different state than it expects throws {@link RegistryConflictException} (or a
 *       subclass) and writes nothing. When several checks fail, the first in this order is reported: the lease
 *       ({@link LeaseRejectedException}), the idempotency key ({@link DuplicateIdempotencyKeyException}, so a
 *       repeated ingest learns its original outcome even after the table moved on), then the registration. A failed lease check throws {@link LeaseRejectedException} and writes
 *       nothing. A backend that cannot be reached throws {@link RegistryUnavailableException} and wrote nothing.
 *   <li>When the outcome cannot be known (a retried request whose first attempt may have landed), a mutation
 *       throws {@link CommitStateUnknownException}, never a plain conflict and never a second application.
 *   <li>Nothing may fail after the atomic write has been applied: a method that returns normally committed.
 *   <li>Backend errors are never reported as "not found" or as an empty result.
 * </ul>
 * Implementations are thread-safe. Implementations: {@code dev.lake.registry.rocksdb.RocksDbMetaStore} (embedded,
 * single process) and {@code dev.lake.registry.dynamodb.DynamoDbMetaStore} (cluster). The test-jar's
 * {@code MetaStoreContract} is the executable form of this contract.
 */
public interface MetaStore extends AutoCloseable {

  /** The current registration of {@code name} (lower-cased), or empty when there is none. */
  Optional<TableRegistration> get(String name);

  /** Registrations in name order, starting after {@code startAfter} (exclusive), at most {@code limit}. */
  Page<TableRegistration> list(Optional<String> startAfter, int limit);

  /** The registered versions of one incarnation, in ascending version order. */
  List<VersionRecord> history(String name, String generation);

  /** The recorded outcome of an idempotency key for one incarnation. */
  Optional<IdempotencyRecord> idempotencyRecord(String name, String generation, String key);

  /** All tombstones (dropped incarnations whose files are not yet collected). */
  List<Tombstone> tombstones();

  /**
   * Create-if-absent: registers a new incarnation and its first history item (and the idempotency item, if
   * given). Throws {@link TableExistsException} when a registration with that name exists.
   */
  void create(LeaseFence fence, TableRegistration registration, Optional<IdempotencyRecord> key);

  /**
   * Compare-and-set: replaces {@code expected} (matched on generation and version) by {@code next} (same name
   * and generation, a higher version) and adds {@code next}'s history item (and the idempotency item, if given).
   * Throws {@link RegistryConflictException} when the current registration is absent or differs from
   * {@code expected}; {@link DuplicateIdempotencyKeyException} when the key was used before.
   */
  void commit(LeaseFence fence, TableRegistration expected, TableRegistration next,
      Optional<IdempotencyRecord> key);

  /**
   * Compare-and-delete on (generation, version), writing {@code tombstone} in the same atomic write. A stale
   * drop throws {@link RegistryConflictException} and can never remove a newer registration.
   */
  void drop(LeaseFence fence, TableRegistration expected, Tombstone tombstone);

  /**
   * Removes a tombstone once its generation's files are gone (with the lease check). Deleting a tombstone that
   * is already gone is a no-op, so the garbage collector may retry.
   */
  void deleteTombstone(LeaseFence fence, Tombstone tombstone);

  /**
   * One page of the idempotency records of one incarnation, in key order, starting after {@code startAfter}
   * (exclusive), at most {@code limit}: what the retention sweep reads to expire keys.
   */
  Page<IdempotencyRecord> idempotencyRecords(
      String name, String generation, Optional<String> startAfter, int limit);

  /**
   * Retention (docs/design.md invariant 9): deletes the history items of {@code versions} of one incarnation, with
   * the lease check. Use {@link HistoryRetention} to choose them. Throws {@link RegistryConflictException} and
   * deletes nothing of the batch when a version is not older than the registered version of that incarnation
   * (the registered version's item never expires). Versions without an item are ignored. A large batch may be
   * applied as several atomic, fenced writes; deletion is idempotent, so after a failure retry the same call.
   */
  void deleteHistory(LeaseFence fence, String name, String generation, Collection<Long> versions);

  /**
   * Retention: deletes the idempotency records of {@code keys} of one incarnation, with the lease check. Keys
   * without a record are ignored; a large batch may be applied as several atomic, fenced writes.
   */
  void deleteIdempotencyRecords(
      LeaseFence fence, String name, String generation, Collection<String> keys);

  /**
   * Snapshot pins (docs/architecture.md, invariant 9): writes or replaces the pin with {@code pin.id()}. Not fenced
   * (any node creates pins, as any node heartbeats); bounding their number is the caller's job. A backend that
   * stores no pins throws {@link UnsupportedOperationException}.
   */
  default void putPin(SnapshotPin pin) {
    throw new UnsupportedOperationException(describe() + " stores no snapshot pins");
  }

  /** The pin with this id, expired or not, or empty. */
  default Optional<SnapshotPin> pin(String id) {
    throw new UnsupportedOperationException(describe() + " stores no snapshot pins");
  }

  /** Every stored pin, expired or not, in id order. */
  default List<SnapshotPin> pins() {
    throw new UnsupportedOperationException(describe() + " stores no snapshot pins");
  }

  /** Removes a pin; removing one that is gone is a no-op. Not fenced. */
  default void deletePin(String id) {
    throw new UnsupportedOperationException(describe() + " stores no snapshot pins");
  }

  /** The leader lease item, if one was ever written. */
  Optional<LeaderLease> lease();

  /**
   * Conditional write of the lease item: succeeds only if the current item equals {@code expected} (on holder
   * and term; empty means "no item yet"). Throws {@link RegistryConflictException} otherwise. Not fenced.
   * Terms never go back and a new holder takes a higher term ({@link IllegalArgumentException} otherwise).
   * {@link LeaseTakeover} is the read-then-write of a take-over at term + 1.
   */
  void writeLease(Optional<LeaderLease> expected, LeaderLease next);

  /** Records a node heartbeat (not fenced). */
  void heartbeat(NodeInfo node);

  /** Known nodes and when each was last seen. */
  List<NodeInfo> nodes();

  /** A short name for messages and metrics, e.g. {@code rocksdb:/path} or {@code dynamodb:table}. */
  String describe();

  @Override
  void close();
}
