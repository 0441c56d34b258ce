package dev.lake.metasrv;

import dev.lake.engine.CommitConflictException;
import dev.lake.engine.CompactionWork;
import dev.lake.engine.ForeignCommitException;
import dev.lake.engine.StoredFile;
import dev.lake.engine.TableEngine;
import dev.lake.registry.HistoryRetention;
import dev.lake.registry.SnapshotPin;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.MetaStore;
import dev.lake.registry.Page;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction, retention and garbage collection, inside the commit protocol.
 *
 * <ul>
 *   <li><b>Compaction</b> is planned and rewritten outside the table lock, then committed under it by the commit
 *       rule. If the registration moved since planning the work is stale: skipped and logged, never forced.
 *   <li><b>Retention</b> (invariant 9) keeps every version that was current at any moment within the window, as
 *       the registry's history says, and always the registered one; Lance's cleanup gets a version bound, never a
 *       time bound. Unreferenced data files older than the orphan guard are swept by lake itself.
 *   <li><b>Garbage collection</b> deletes a dropped incarnation's files only after the drop grace period, then
 *       its history, keys and tombstone.
 * </ul>
 * Every change to storage here (the compaction's reservation and rewrite commits, the commit rule's repair, Lance's
 * cleanup, file deletions) passes the write gate immediately before it: a node that lost the lease touches nothing.
 */
public final class Maintenance {
  private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);
  private static final int PAGE = 500;

  private final MetaStore store;
  private final TableEngine engine;
  private final Leadership leadership;
  private final TableLocks locks;
  private final TableLocations locations;
  private final Clock clock;
  private final MaintenanceSettings settings;
  private final WriteInterceptor interceptor;
  private final CommitRule commitRule;
  private final RegistrationListener listener;
  private final IndexBuilds indexBuilds;

  public Maintenance(MetaStore store, TableEngine engine, Leadership leadership, TableLocks locks,
      TableLocations locations, Clock clock, MaintenanceSettings settings, WriteInterceptor interceptor) {
    this(store, engine, leadership, locks, locations, clock, settings, interceptor, RegistrationListener.NONE);
  }

  /** @param listener told of every registration a compaction makes (the node's catalog: read-your-writes) */
  public Maintenance(MetaStore store, TableEngine engine, Leadership leadership, TableLocks locks,
      TableLocations locations, Clock clock, MaintenanceSettings settings, WriteInterceptor interceptor,
      RegistrationListener listener) {
    this.listener = java.util.Objects.requireNonNull(listener, "listener");
    this.store = store;
    this.locations = locations;
    this.engine = engine;
    this.leadership = leadership;
    this.locks = locks;
    this.clock = clock;
    this.settings = settings;
    this.interceptor = interceptor;
    this.commitRule = new CommitRule(engine, leadership);
    this.indexBuilds = new IndexBuilds(store, engine, leadership, locks, clock, interceptor, listener);
  }

  /** Scalar index builds ({@code lake.create_index}), under the same lock, gate and commit rule as compaction. */
  public IndexBuilds indexes() {
    return indexBuilds;
  }

  /** Compacts, then applies retention to, the current incarnation of {@code table}. */
  public MaintenanceReport maintain(String table) {
    Optional<TableRegistration> compacted = compact(table);
    MaintenanceReport retained = retain(table);
    return new MaintenanceReport(compacted.map(TableRegistration::version), retained.versionsRemoved(),
        retained.historyExpired(), retained.keysExpired(), retained.orphansDeleted());
  }

  /**
   * Compacts {@code table}'s registered version. Returns the new registration, or empty when there was nothing to
   * compact or the work went stale (the registration moved while it was being rewritten).
   */
  public Optional<TableRegistration> compact(String table) {
    String name = TableNames.normalize(table);
    TableRegistration planned = store.get(name).orElseThrow(() -> new TableNotFoundException(name));
    leadership.enter(); // refuse early on a follower: the rewrite is wasted work if this node cannot commit it
    Optional<CompactionWork> prepared = engine.prepareCompaction(planned.location(), planned.version(),
        settings.compaction());
    if (prepared.isEmpty()) {
      return Optional.empty();
    }
    CompactionWork work = prepared.get();
    interceptor.afterCompactionPrepared(name);
    return locks.withLock(name, () -> {
      Optional<TableRegistration> current = store.get(name);
      if (current.isEmpty() || !current.get().sameSnapshot(planned)) {
        LOG.info("compaction stale, skipped table={} plannedVersion={} registered={}", name, planned.version(),
            current.map(r -> r.generation() + "@" + r.version()).orElse("dropped"));
        discard(work);
        return Optional.empty();
      }
      TableRegistration registration = current.get();
      long readVersion = commitRule.readVersion(registration); // a repair passes the gate first
      LeaseFence fence = leadership.enter();
      interceptor.beforeLanceCommit(name, registration.location(), readVersion);
      long version;
      try {
        version = engine.commitCompaction(registration.location(), readVersion, work);
      } catch (CommitConflictException e) {
        LOG.info("compaction refused by Lance, skipped table={} readVersion={}: {}", name, readVersion,
            e.getMessage());
        discard(work);
        return Optional.empty();
      } catch (ForeignCommitException e) {
        LOG.warn("foreign data commit during compaction, not registered table={} committed={} foreign={}", name,
            e.committedVersion(), e.foreignVersion());
        return Optional.empty();
      }
      TableRegistration next = VersionRegistrations.registerSameSchema(store, interceptor, clock, listener, fence,
          registration, version, "compaction");
      LOG.info("compaction registered table={} generation={} from={} to={} fragmentsRemoved={} fragmentsAdded={}",
          name, registration.generation(), registration.version(), version, work.fragmentsRemoved(),
          work.fragmentsAdded());
      return Optional.of(next);
    });
  }

  /**
   * Retention for the current incarnation of {@code table}: cleans up Lance versions that left the window,
   * expires history items and idempotency keys, and sweeps orphaned data files older than the guard.
   */
  public MaintenanceReport retain(String table) {
    String name = TableNames.normalize(table);
    TableRegistration registration = store.get(name).orElseThrow(() -> new TableNotFoundException(name));
    Instant now = clock.instant();
    Instant windowStart = now.minus(settings.retentionWindow());
    String location = registration.location();
    List<VersionRecord> history = store.history(name, registration.generation());
    // snapshot pins hold their versions (files and history items) past the window until they expire
    Set<Long> pinned = PinnedVersions.versions(PinnedVersions.live(store, now), name, registration.generation());
    List<VersionRecord> expired = HistoryRetention.expired(history, windowStart, Optional.empty()).stream()
        .filter(v -> !pinned.contains(v.version())).toList();
    Set<Long> keep = new TreeSet<>(pinned);
    for (VersionRecord v : history) {
      if (!expired.contains(v)) {
        keep.add(v.version());
      }
    }
    keep.add(registration.version());
    leadership.enter(); // Lance's cleanup deletes manifests and files: storage, behind the gate like a commit
    long removed = engine.cleanup(location, keep, registration.version()).versionsRemoved();

    LeaseFence fence = leadership.enter();
    List<Long> expiredVersions = expired.stream().map(VersionRecord::version)
        .filter(v -> v < registration.version()).toList();
    if (!expiredVersions.isEmpty()) {
      store.deleteHistory(fence, name, registration.generation(), expiredVersions);
    }
    long keys = expireKeys(fence, name, registration.generation(), windowStart);
    long orphans = sweepOrphans(registration, keep, now);
    if (removed + expiredVersions.size() + keys + orphans > 0) {
      LOG.info("retention table={} generation={} registered={} versionsRemoved={} historyExpired={} "
          + "keysExpired={} orphansDeleted={}", name, registration.generation(), registration.version(), removed,
          expiredVersions.size(), keys, orphans);
    }
    return new MaintenanceReport(Optional.empty(), removed, expiredVersions.size(), keys, orphans);
  }

  /**
   * Deletes generation directories that no registration or tombstone names (a create that crashed before it
   * registered) once everything in them is older than the orphan guard. Returns how many were removed.
   */
  public int sweepUnnamedGenerations() {
    Instant guard = clock.instant().minus(settings.orphanGuard());
    Map<String, Instant> newest = new HashMap<>();
    for (StoredFile f : engine.listAllFiles(locations.dataRoot())) {
      String[] parts = f.path().split("/", 3);
      if (parts.length < 3 || !TableNames.isValid(parts[0])) {
        continue; // not <name>/<generation>/... (e.g. the start-up probe's objects)
      }
      newest.merge(parts[0] + "/" + parts[1], f.lastModified(), (a, b) -> a.isAfter(b) ? a : b);
    }
    if (newest.isEmpty()) {
      return 0;
    }
    Set<String> named = new HashSet<>();
    Optional<String> cursor = Optional.empty();
    do {
      Page<TableRegistration> page = store.list(cursor, PAGE);
      page.items().forEach(r -> named.add(r.name() + "/" + r.generation()));
      cursor = page.next();
    } while (cursor.isPresent());
    store.tombstones().forEach(t -> named.add(t.name() + "/" + t.generation()));
    int removed = 0;
    for (Map.Entry<String, Instant> e : newest.entrySet()) {
      if (named.contains(e.getKey()) || !e.getValue().isBefore(guard)) {
        continue;
      }
      String[] nameAndGeneration = e.getKey().split("/");
      String location = locations.locationOf(nameAndGeneration[0], nameAndGeneration[1]);
      // re-check: a create may have registered it since the listing
      if (store.get(nameAndGeneration[0]).filter(r -> r.generation().equals(nameAndGeneration[1])).isPresent()) {
        continue;
      }
      leadership.enter();
      engine.drop(location);
      LOG.info("unnamed generation removed location={} newestFile={}", location, e.getValue());
      removed++;
    }
    return removed;
  }

  /**
   * Deletes the files of incarnations dropped longer than the grace period ago, then their history, keys and
   * tombstone, and sweeps generation directories nothing names. Returns how many incarnations were collected.
   */
  public int collectGarbage() {
    int swept = sweepUnnamedGenerations();
    Instant graceStart = clock.instant().minus(settings.dropGrace());
    int collected = 0;
    List<SnapshotPin> pins = null;
    for (Tombstone t : store.tombstones()) {
      if (!t.droppedAt().isBefore(graceStart)) {
        continue;
      }
      pins = pins != null ? pins : PinnedVersions.live(store, clock.instant());
      if (PinnedVersions.holds(pins, t.name(), t.generation())) {
        continue; // a reader that resolved through a live pin may still be reading these files
      }
      LeaseFence fence = leadership.enter();
      engine.drop(t.location());
      List<Long> versions = store.history(t.name(), t.generation()).stream().map(VersionRecord::version).toList();
      if (!versions.isEmpty()) {
        store.deleteHistory(fence, t.name(), t.generation(), versions);
      }
      expireKeys(fence, t.name(), t.generation(), Instant.MAX);
      store.deleteTombstone(fence, t);
      LOG.info("dropped incarnation collected table={} generation={} droppedAt={}", t.name(), t.generation(),
          t.droppedAt());
      collected++;
    }
    return collected + swept;
  }

  private long expireKeys(LeaseFence fence, String name, String generation, Instant before) {
    long expired = 0;
    Optional<String> cursor = Optional.empty();
    do {
      Page<IdempotencyRecord> page = store.idempotencyRecords(name, generation, cursor, PAGE);
      List<String> old = page.items().stream().filter(r -> r.createdAt().isBefore(before))
          .map(IdempotencyRecord::key).toList();
      if (!old.isEmpty()) {
        store.deleteIdempotencyRecords(fence, name, generation, old);
        expired += old.size();
      }
      cursor = page.next();
    } while (cursor.isPresent());
    return expired;
  }

  /**
   * Deletes data files that no retained version references (and no version at or after the registered one, which
   * an in-progress commit may be writing) once they are older than the orphan guard.
   */
  private long sweepOrphans(TableRegistration registration, Set<Long> keep, Instant now) {
    String location = registration.location();
    Instant guard = now.minus(settings.orphanGuard());
    List<StoredFile> files = engine.listDataFiles(location);
    List<String> old = new ArrayList<>();
    for (StoredFile f : files) {
      if (f.lastModified().isBefore(guard)) {
        old.add(f.path());
      }
    }
    if (old.isEmpty()) {
      return 0;
    }
    Set<Long> versions = new HashSet<>(keep);
    long latest = engine.latestVersion(location);
    for (long v = registration.version(); v <= latest; v++) {
      versions.add(v);
    }
    Set<String> referenced = engine.referencedDataFiles(location, versions);
    List<String> orphans = old.stream().filter(p -> !referenced.contains(p)).toList();
    if (!orphans.isEmpty()) {
      leadership.enter();
      engine.deleteDataFiles(location, orphans);
    }
    return orphans.size();
  }

  private void discard(CompactionWork work) {
    try {
      leadership.enter(); // a node that is not the leader deletes nothing; the orphan sweep will
      engine.deleteDataFiles(work.location(), work.writtenFiles());
    } catch (RuntimeException e) {
      LOG.warn("could not delete the files of a skipped compaction location={}; the orphan sweep will",
          work.location(), e);
    }
  }
}
