package dev.lake.registry.rocksdb;

import dev.lake.registry.SnapshotPin;
import dev.lake.registry.DuplicateIdempotencyKeyException;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.LeaseTakeover;
import dev.lake.registry.MetaStore;
import dev.lake.registry.NodeInfo;
import dev.lake.registry.Page;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableExistsException;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import dev.lake.registry.support.Failures;
import dev.lake.registry.support.MutationArguments;
import java.nio.file.Path;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded registry: a RocksDB {@code TransactionDB} in one directory, used by one process.
 *
 * <p>Every mutation is one pessimistic transaction that first locks the lease item ({@code getForUpdate}) and
 * checks the fence, then locks and checks the registration and the idempotency key or tombstone it touches, and
 * writes all of its items together. Because every mutation locks the lease item first, mutations are serialized
 * and cannot deadlock. Commits fsync the write-ahead log ({@link RocksDbSettings#syncWrites()}).
 */
public final class RocksDbMetaStore implements MetaStore {
  private static final Logger LOG = LoggerFactory.getLogger(RocksDbMetaStore.class);
  private static final int LAYOUT_VERSION = 1;

  private final RocksAccess access;
  private final RegistryJson json = new RegistryJson();

  private RocksDbMetaStore(RocksAccess access) {
    this.access = access;
  }

  /** Opens (creating if needed) the registry in {@code dir} with {@link RocksDbSettings#defaults()}. */
  public static RocksDbMetaStore open(Path dir) {
    return open(dir, RocksDbSettings.defaults());
  }

  /**
   * Opens (creating if needed) the registry in {@code dir}.
   *
   * @throws RegistryUnavailableException when the directory cannot be opened (for example another process holds
   *     its lock) or holds a layout this version does not know
   */
  public static RocksDbMetaStore open(Path dir, RocksDbSettings settings) {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(settings, "settings");
    RocksAccess access = new RocksAccess(dir.toAbsolutePath(), settings);
    try {
      RocksDbMetaStore store = new RocksDbMetaStore(access);
      store.checkLayout();
      LOG.info("registry opened backend=rocksdb dir={} syncWrites={}", access.dir(), settings.syncWrites());
      return store;
    } catch (RuntimeException e) {
      access.close();
      throw e;
    }
  }

  /**
   * The single-process start-up step: reads the lease and writes holder = {@code holderId} at term + 1, so every
   * fence of an earlier process is rejected from now on.
   */
  public LeaderLease takeLeaseAtStartup(String holderId, String internalAddress, Instant expiresAt) {
    LeaderLease lease = LeaseTakeover.takeOver(this, holderId, internalAddress, expiresAt);
    LOG.info("lease taken at start-up holder={} term={} registry={}", holderId, lease.term(), describe());
    return lease;
  }

  @Override
  public Optional<TableRegistration> get(String name) {
    String table = TableNames.normalize(name);
    byte[] key = RocksKeys.registration(table);
    return access.read("get " + table, db -> decode(db.get(key), TableRegistration.class, key));
  }

  @Override
  public Page<TableRegistration> list(Optional<String> startAfter, int limit) {
    Objects.requireNonNull(startAfter, "startAfter");
    MutationArguments.limit(limit);
    return access.scan("list tables", RocksKeys.REGISTRATIONS, startAfter, limit,
        (name, value) -> json.decode(value, TableRegistration.class, "r/" + name));
  }

  @Override
  public List<VersionRecord> history(String name, String generation) {
    String table = TableNames.normalize(name);
    MutationArguments.generation(generation);
    return access.scan("history of " + table, RocksKeys.historyPrefix(table, generation), Optional.empty(),
        Integer.MAX_VALUE,
        (v, value) -> json.decode(value, VersionRecord.class, "h/" + table + "/" + generation + "/" + v))
        .items();
  }

  @Override
  public Optional<IdempotencyRecord> idempotencyRecord(String name, String generation, String key) {
    String table = TableNames.normalize(name);
    MutationArguments.generation(generation);
    IdempotencyRecord.validateKey(key);
    byte[] itemKey = RocksKeys.key(table, generation, key);
    return access.read("idempotency key of " + table,
        db -> decode(db.get(itemKey), IdempotencyRecord.class, itemKey));
  }

  @Override
  public Page<IdempotencyRecord> idempotencyRecords(
      String name, String generation, Optional<String> startAfter, int limit) {
    String table = TableNames.normalize(name);
    MutationArguments.generation(generation);
    Objects.requireNonNull(startAfter, "startAfter");
    MutationArguments.limit(limit);
    return access.scan("idempotency keys of " + table, RocksKeys.keyPrefix(table, generation), startAfter, limit,
        (key, value) ->
            json.decode(value, IdempotencyRecord.class, "k/" + table + "/" + generation + "/" + key));
  }

  @Override
  public List<Tombstone> tombstones() {
    return access.scan("list tombstones", RocksKeys.TOMBSTONES, Optional.empty(), Integer.MAX_VALUE,
        (k, value) -> json.decode(value, Tombstone.class, "t/" + k.replace('\0', '/'))).items();
  }

  @Override
  public Optional<LeaderLease> lease() {
    return access.read("read lease", db -> decode(db.get(RocksKeys.LEASE), LeaderLease.class, RocksKeys.LEASE));
  }

  @Override
  public List<NodeInfo> nodes() {
    return access.scan("list nodes", RocksKeys.NODES, Optional.empty(), Integer.MAX_VALUE,
        (id, value) -> json.decode(value, NodeInfo.class, "n/" + id)).items();
  }

  @Override
  public void create(LeaseFence fence, TableRegistration registration, Optional<IdempotencyRecord> key) {
    Objects.requireNonNull(fence, "fence");
    MutationArguments.create(registration, key);
    String table = registration.name();
    access.transact("create " + table, (tx, ro) -> {
      checkLease(tx, ro, fence, "create of table '" + table + "'");
      checkKeyUnused(tx, ro, key);
      if (locked(tx, ro, RocksKeys.registration(table), TableRegistration.class).isPresent()) {
        throw new TableExistsException(table);
      }
      tx.put(RocksKeys.registration(table), json.encode(registration));
      putHistory(tx, registration);
      putKey(tx, key);
    });
    LOG.info("table registered op=create table={} generation={} version={} term={}", table,
        registration.generation(), registration.version(), fence.term());
  }

  @Override
  public void commit(LeaseFence fence, TableRegistration expected, TableRegistration next,
      Optional<IdempotencyRecord> key) {
    Objects.requireNonNull(fence, "fence");
    MutationArguments.commit(expected, next, key);
    String table = next.name();
    access.transact("commit " + table, (tx, ro) -> {
      checkLease(tx, ro, fence, "commit of table '" + table + "'");
      checkKeyUnused(tx, ro, key);
      Optional<TableRegistration> current = locked(tx, ro, RocksKeys.registration(table), TableRegistration.class);
      if (current.isEmpty() || !current.get().sameSnapshot(expected)) {
        throw Failures.registrationMoved("commit", expected, current);
      }
      tx.put(RocksKeys.registration(table), json.encode(next));
      putHistory(tx, next);
      putKey(tx, key);
    });
    LOG.info("table registered op=commit table={} generation={} version={} previous={} term={}", table,
        next.generation(), next.version(), expected.version(), fence.term());
  }

  @Override
  public void drop(LeaseFence fence, TableRegistration expected, Tombstone tombstone) {
    Objects.requireNonNull(fence, "fence");
    MutationArguments.drop(expected, tombstone);
    String table = expected.name();
    access.transact("drop " + table, (tx, ro) -> {
      checkLease(tx, ro, fence, "drop of table '" + table + "'");
      Optional<TableRegistration> current = locked(tx, ro, RocksKeys.registration(table), TableRegistration.class);
      if (current.isEmpty() || !current.get().sameSnapshot(expected)) {
        throw Failures.registrationMoved("drop", expected, current);
      }
      tx.delete(RocksKeys.registration(table));
      tx.put(RocksKeys.tombstone(table, tombstone.generation()), json.encode(tombstone));
    });
    LOG.info("table dropped table={} generation={} version={} term={}", table, expected.generation(),
        expected.version(), fence.term());
  }

  @Override
  public void deleteTombstone(LeaseFence fence, Tombstone tombstone) {
    Objects.requireNonNull(fence, "fence");
    Objects.requireNonNull(tombstone, "tombstone");
    access.transact("delete tombstone " + tombstone.name(), (tx, ro) -> {
      checkLease(tx, ro, fence, "deletion of the tombstone of '" + tombstone.name() + "'");
      tx.delete(RocksKeys.tombstone(tombstone.name(), tombstone.generation()));
    });
  }

  @Override
  public void deleteHistory(LeaseFence fence, String name, String generation, Collection<Long> versions) {
    Objects.requireNonNull(fence, "fence");
    String table = MutationArguments.retention(name, generation, versions);
    if (versions.isEmpty()) return;
    long newest = versions.stream().mapToLong(Long::longValue).max().orElseThrow();
    access.transact("expire history of " + table, (tx, ro) -> {
      checkLease(tx, ro, fence, "history expiry of '" + table + "'");
      Optional<TableRegistration> current = locked(tx, ro, RocksKeys.registration(table), TableRegistration.class);
      if (current.isPresent() && current.get().generation().equals(generation)
          && newest >= current.get().version()) {
        throw Failures.historyStillCurrent(table, generation, newest, current.get().version());
      }
      for (long version : versions) tx.delete(RocksKeys.history(table, generation, version));
    });
  }

  @Override
  public void deleteIdempotencyRecords(LeaseFence fence, String name, String generation, Collection<String> keys) {
    Objects.requireNonNull(fence, "fence");
    String table = MutationArguments.retention(name, generation, keys);
    if (keys.isEmpty()) return;
    access.transact("expire idempotency keys of " + table, (tx, ro) -> {
      checkLease(tx, ro, fence, "idempotency key expiry of '" + table + "'");
      for (String key : keys) tx.delete(RocksKeys.key(table, generation, key));
    });
  }

  @Override
  public void writeLease(Optional<LeaderLease> expected, LeaderLease next) {
    MutationArguments.lease(expected, next);
    access.transact("write lease", (tx, ro) -> {
      Optional<LeaderLease> current = locked(tx, ro, RocksKeys.LEASE, LeaderLease.class);
      if (!sameLease(expected, current)) throw Failures.leaseMoved(expected, current);
      tx.put(RocksKeys.LEASE, json.encode(next));
    });
  }

  @Override
  public void putPin(SnapshotPin pin) {
    Objects.requireNonNull(pin, "pin");
    access.transact("put snapshot pin " + pin.id(),
        (tx, ro) -> tx.put(RocksKeys.pin(pin.id()), pin.toJson().getBytes(StandardCharsets.UTF_8)));
  }

  @Override
  public Optional<SnapshotPin> pin(String id) {
    Objects.requireNonNull(id, "id");
    byte[] key = RocksKeys.pin(id);
    return access.read("read snapshot pin", db -> Optional.ofNullable(db.get(key))
        .map(value -> SnapshotPin.fromJson(new String(value, StandardCharsets.UTF_8))));
  }

  @Override
  public List<SnapshotPin> pins() {
    return access.scan("list snapshot pins", RocksKeys.PINS, Optional.empty(), Integer.MAX_VALUE,
        (k, value) -> SnapshotPin.fromJson(new String(value, StandardCharsets.UTF_8))).items();
  }

  @Override
  public void deletePin(String id) {
    Objects.requireNonNull(id, "id");
    access.transact("delete snapshot pin " + id, (tx, ro) -> tx.delete(RocksKeys.pin(id)));
  }

  @Override
  public void heartbeat(NodeInfo node) {
    Objects.requireNonNull(node, "node");
    access.transact("heartbeat of " + node.nodeId(),
        (tx, ro) -> tx.put(RocksKeys.node(node.nodeId()), json.encode(node)));
  }

  @Override
  public String describe() {
    return "rocksdb:" + access.dir();
  }

  @Override
  public void close() {
    access.close();
  }

  private void checkLayout() {
    access.transact("check layout", (tx, ro) -> {
      byte[] stored = tx.getForUpdate(ro, RocksKeys.FORMAT, true);
      if (stored == null) {
        tx.put(RocksKeys.FORMAT, RocksKeys.bytes(Integer.toString(LAYOUT_VERSION)));
      } else if (!new String(stored, java.nio.charset.StandardCharsets.UTF_8).equals(
          Integer.toString(LAYOUT_VERSION))) {
        throw new RegistryUnavailableException("the RocksDB registry at " + access.dir() + " has layout "
            + new String(stored, java.nio.charset.StandardCharsets.UTF_8) + ", this server reads layout "
            + LAYOUT_VERSION + ": run the matching lake version", null);
      }
    });
  }

  private void checkLease(Transaction tx, ReadOptions ro, LeaseFence fence, String what) throws RocksDBException {
    Optional<LeaderLease> lease = locked(tx, ro, RocksKeys.LEASE, LeaderLease.class);
    if (lease.isEmpty() || !lease.get().holderId().equals(fence.holderId()) || lease.get().term() != fence.term()) {
      throw Failures.leaseRejected(what, fence, lease);
    }
  }

  private void checkKeyUnused(Transaction tx, ReadOptions ro, Optional<IdempotencyRecord> key)
      throws RocksDBException {
    if (key.isEmpty()) return;
    IdempotencyRecord k = key.get();
    Optional<IdempotencyRecord> original =
        locked(tx, ro, RocksKeys.key(k.table(), k.generation(), k.key()), IdempotencyRecord.class);
    if (original.isPresent()) throw new DuplicateIdempotencyKeyException(original.get());
  }

  private void putHistory(Transaction tx, TableRegistration registration) throws RocksDBException {
    VersionRecord item = new VersionRecord(registration.name(), registration.generation(),
        registration.version(), registration.updatedAt());
    tx.put(RocksKeys.history(item.table(), item.generation(), item.version()), json.encode(item));
  }

  private void putKey(Transaction tx, Optional<IdempotencyRecord> key) throws RocksDBException {
    if (key.isEmpty()) return;
    IdempotencyRecord k = key.get();
    tx.put(RocksKeys.key(k.table(), k.generation(), k.key()), json.encode(k));
  }

  private <T> Optional<T> locked(Transaction tx, ReadOptions ro, byte[] key, Class<T> type)
      throws RocksDBException {
    return decode(tx.getForUpdate(ro, key, true), type, key);
  }

  private <T> Optional<T> decode(byte[] value, Class<T> type, byte[] key) {
    return value == null ? Optional.empty() : Optional.of(json.decode(value, type, RocksKeys.describe(key)));
  }

  static boolean sameLease(Optional<LeaderLease> expected, Optional<LeaderLease> current) {
    if (expected.isEmpty() || current.isEmpty()) return expected.isEmpty() && current.isEmpty();
    return expected.get().holderId().equals(current.get().holderId())
        && expected.get().term() == current.get().term();
  }
}
