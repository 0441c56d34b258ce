package dev.lake.registry;

import static dev.lake.registry.RegistryFixtures.firstVersion;
import static dev.lake.registry.RegistryFixtures.historyItem;
import static dev.lake.registry.RegistryFixtures.key;
import static dev.lake.registry.RegistryFixtures.nextVersion;
import static dev.lake.registry.RegistryFixtures.tombstone;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The executable contract of {@link MetaStore}: every backend runs this suite (extend it, open a fresh store in
 * {@link #openStore()} and say how its backend goes down in {@link #makeUnreachable(MetaStore)}). Reusable from
 * the lake-registry test-jar. Each test starts with {@link #store} led by node-a at {@link #fence}; the lease and
 * node cases are inherited from {@link MetaStoreLeaseContract}.
 */
public abstract class MetaStoreContract extends MetaStoreLeaseContract {
  @Test
  void metaStoreContract() {
    TableRegistration v1 = firstVersion("Orders", fence.term());
    store.create(fence, v1, key(v1, "load-1", 10));
    assertThat(store.get("ORDERS")).contains(v1);
    TableRegistration v2 = nextVersion(v1, fence.term());
    store.commit(fence, v1, v2, key(v2, "load-2", 5));
    assertThat(store.get("orders")).contains(v2);
    assertThat(store.history("orders", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
    assertThat(store.idempotencyRecord("orders", v1.generation(), "load-2")).isEqualTo(key(v2, "load-2", 5));

    Tombstone dropped = tombstone(v2);
    store.drop(fence, v2, dropped);
    assertThat(store.get("orders")).isEmpty();
    assertThat(store.tombstones()).containsExactly(dropped);

    TableRegistration again = firstVersion("orders", fence.term());
    store.create(fence, again, key(again, "load-1", 3));
    assertThat(store.get("orders")).contains(again);
    assertThat(store.history("orders", again.generation())).containsExactly(historyItem(again));
    assertThat(store.idempotencyRecord("orders", again.generation(), "load-1")).isEqualTo(key(again, "load-1", 3));
    store.deleteTombstone(fence, dropped);
    store.deleteTombstone(fence, dropped);
    assertThat(store.tombstones()).isEmpty();
    assertThat(store.list(Optional.empty(), 10)).isEqualTo(new Page<>(List.of(again), Optional.empty()));
  }

  @Test
  void readsOfThingsNeverWrittenAreEmpty() throws Exception {
    MetaStore fresh = open();
    assertThat(fresh.get("nothing")).isEmpty();
    assertThat(fresh.list(Optional.empty(), 5)).isEqualTo(new Page<>(List.of(), Optional.empty()));
    assertThat(fresh.history("nothing", "g1")).isEmpty();
    assertThat(fresh.idempotencyRecord("nothing", "g1", "k")).isEmpty();
    assertThat(fresh.idempotencyRecords("nothing", "g1", Optional.empty(), 5).items()).isEmpty();
    assertThat(fresh.tombstones()).isEmpty();
    assertThat(fresh.lease()).isEmpty();
    assertThat(fresh.nodes()).isEmpty();
    assertThat(fresh.describe()).isNotBlank();
  }

  @Test
  void createIfAbsentTwiceThrowsTableExists() {
    TableRegistration first = firstVersion("events", fence.term());
    store.create(fence, first, Optional.empty());
    TableRegistration second = firstVersion("EVENTS", fence.term());

    TableExistsException e = catchThrowableOfType(TableExistsException.class,
        () -> store.create(fence, second, key(second, "k", 1)));

    assertThat(e.table()).isEqualTo("events");
    assertThat(store.get("events")).contains(first);
    assertThat(store.history("events", second.generation())).isEmpty();
    assertThat(store.idempotencyRecord("events", second.generation(), "k")).isEmpty();
  }

  @Test
  void casWithStaleExpectedConflictsAndChangesNothing() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    store.commit(fence, v1, v2, Optional.empty());
    TableRegistration rival = v1.withVersion(2, "{\"rival\":true}", fence.term(), v2.updatedAt().plusSeconds(9));
    TableRegistration skipping = v1.withVersion(3, "{\"rival\":true}", fence.term(), v2.updatedAt().plusSeconds(9));

    assertThatThrownBy(() -> store.commit(fence, v1, rival, key(rival, "rival", 1)))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThatThrownBy(() -> store.commit(fence, v1, skipping, Optional.empty()))
        .isExactlyInstanceOf(RegistryConflictException.class);

    assertThat(store.get("t")).contains(v2);
    assertThat(store.history("t", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
    assertThat(store.idempotencyRecord("t", v1.generation(), "rival")).isEmpty();
  }

  @Test
  void casOnAMissingOrReplacedTableConflicts() {
    TableRegistration never = firstVersion("never", fence.term());
    assertThatThrownBy(() -> store.commit(fence, never, nextVersion(never, fence.term()), Optional.empty()))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(store.get("never")).isEmpty();
    assertThat(store.history("never", never.generation())).isEmpty();

    TableRegistration old = firstVersion("t", fence.term());
    store.create(fence, old, Optional.empty());
    store.drop(fence, old, tombstone(old));
    TableRegistration replacement = firstVersion("t", fence.term());
    store.create(fence, replacement, Optional.empty());
    assertThatThrownBy(() -> store.commit(fence, old, nextVersion(old, fence.term()), Optional.empty()))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(store.get("t")).contains(replacement);
    assertThat(store.history("t", old.generation())).containsExactly(historyItem(old));
  }

  @Test
  void staleConditionalDeleteCannotRemoveReplacement() {
    TableRegistration old = firstVersion("t", fence.term());
    store.create(fence, old, Optional.empty());
    store.drop(fence, old, tombstone(old));
    TableRegistration replacement = firstVersion("t", fence.term());
    store.create(fence, replacement, Optional.empty());

    assertThatThrownBy(() -> store.drop(fence, old, tombstone(old)))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(store.get("t")).contains(replacement);

    TableRegistration newer = nextVersion(replacement, fence.term());
    store.commit(fence, replacement, newer, Optional.empty());
    assertThatThrownBy(() -> store.drop(fence, replacement, tombstone(replacement)))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(store.get("t")).contains(newer);
    assertThat(store.tombstones()).containsExactly(tombstone(old));
  }

  @Test
  void mutationsOfADeposedLeaderAreRejectedWhateverTableTheyTouch() {
    TableRegistration v1 = firstVersion("kept", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    store.commit(fence, v1, v2, key(v2, "k", 3));
    TableRegistration gone = firstVersion("gone", fence.term());
    store.create(fence, gone, Optional.empty());
    store.drop(fence, gone, tombstone(gone));
    LeaseFence deposed = fence;
    LeaseFence successor = LeaseTakeover.takeOver(store, "node-b", "10.0.0.2:7000", FOREVER).fence();
    assertThat(successor.term()).isEqualTo(deposed.term() + 1);

    assertAllRejected(deposed, v1, v2, gone);
    assertAllRejected(new LeaseFence("node-b", deposed.term()), v1, v2, gone);

    assertThat(store.get("kept")).contains(v2);
    assertThat(store.get("fresh")).isEmpty();
    assertThat(store.tombstones()).containsExactly(tombstone(gone));
    assertThat(store.history("kept", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
    assertThat(store.idempotencyRecord("kept", v1.generation(), "k")).isPresent();
    TableRegistration v3 = nextVersion(v2, successor.term());
    store.commit(successor, v2, v3, Optional.empty());
    assertThat(store.get("kept")).contains(v3);
  }

  private void assertAllRejected(LeaseFence stale, TableRegistration v1, TableRegistration v2, TableRegistration gone) {
    TableRegistration fresh = firstVersion("fresh", stale.term());
    List<ThrowingCallable> mutations = List.of(
        () -> store.create(stale, fresh, Optional.empty()),
        () -> store.commit(stale, v2, nextVersion(v2, stale.term()), Optional.empty()),
        () -> store.commit(stale, v1, v2, key(v2, "k", 3)),
        () -> store.drop(stale, v2, tombstone(v2)),
        () -> store.deleteTombstone(stale, tombstone(gone)),
        () -> store.deleteHistory(stale, "kept", v1.generation(), List.of(1L)),
        () -> store.deleteIdempotencyRecords(stale, "kept", v1.generation(), List.of("k")));
    for (ThrowingCallable mutation : mutations) {
      assertThatThrownBy(mutation).isInstanceOf(LeaseRejectedException.class);
    }
  }

  @Test
  void historyAndKeyItemsAppearExactlyWhenTheMutationSucceeds() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    TableRegistration staleExpected = v1.withVersion(5, v1.schema(), fence.term(), v1.updatedAt());
    TableRegistration v6 = nextVersion(staleExpected, fence.term());

    assertThatThrownBy(() -> store.commit(fence, staleExpected, v6, key(v6, "k", 1)))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThatThrownBy(() -> store.commit(new LeaseFence("node-a", fence.term() + 7), v1, v2, key(v2, "k", 1)))
        .isInstanceOf(LeaseRejectedException.class);
    assertThatThrownBy(() -> store.drop(fence, staleExpected, tombstone(staleExpected)))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(store.history("t", v1.generation())).containsExactly(historyItem(v1));
    assertThat(store.idempotencyRecord("t", v1.generation(), "k")).isEmpty();
    assertThat(store.tombstones()).isEmpty();

    store.commit(fence, v1, v2, key(v2, "k", 1));
    assertThat(store.history("t", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
    assertThat(store.idempotencyRecord("t", v1.generation(), "k")).isEqualTo(key(v2, "k", 1));
  }

  @Test
  void aRepeatedIdempotencyKeyReturnsTheOriginalOutcomeAndWritesNothing() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    TableRegistration v2 = nextVersion(v1, fence.term());
    store.commit(fence, v1, v2, key(v2, "ingest-7", 10));
    TableRegistration v3 = nextVersion(v2, fence.term());
    TableRegistration fromStaleRead = nextVersion(v1, fence.term());

    DuplicateIdempotencyKeyException repeat = catchThrowableOfType(DuplicateIdempotencyKeyException.class,
        () -> store.commit(fence, v2, v3, key(v3, "ingest-7", 99)));
    DuplicateIdempotencyKeyException stale = catchThrowableOfType(DuplicateIdempotencyKeyException.class,
        () -> store.commit(fence, v1, fromStaleRead, key(fromStaleRead, "ingest-7", 99)));

    assertThat(repeat.original()).isEqualTo(key(v2, "ingest-7", 10).orElseThrow());
    assertThat(stale.original()).isEqualTo(key(v2, "ingest-7", 10).orElseThrow());
    assertThat(store.get("t")).contains(v2);
    assertThat(store.history("t", v1.generation())).containsExactly(historyItem(v1), historyItem(v2));
  }

  @Test
  void listingPagesThroughThreeThousandTablesInNameOrder() {
    Random random = new Random(42);
    TreeSet<String> names = new TreeSet<>();
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_";
    while (names.size() < 3000) {
      StringBuilder name = new StringBuilder().append((char) ('a' + random.nextInt(26)));
      for (int i = random.nextInt(12); i >= 0; i--) name.append(alphabet.charAt(random.nextInt(alphabet.length())));
      names.add(name.toString());
    }
    for (String name : names) {
      String shown = random.nextBoolean() ? name.toUpperCase() : name;
      store.create(fence, firstVersion(shown, fence.term()), Optional.empty());
    }
    List<String> expected = new ArrayList<>(names);

    for (int pageSize : new int[] {7, 250, 1000, 2999, 3000, 5000}) {
      List<String> seen = new ArrayList<>();
      Optional<String> cursor = Optional.empty();
      int pages = 0;
      do {
        Page<TableRegistration> page = store.list(cursor, pageSize);
        pages++;
        assertThat(page.items()).hasSizeLessThanOrEqualTo(pageSize);
        assertThat(pages).as("pages at size %d", pageSize).isLessThanOrEqualTo(3000 / pageSize + 1);
        page.items().forEach(r -> seen.add(r.name()));
        cursor = page.next();
      } while (cursor.isPresent());
      assertThat(seen).as("page size %d", pageSize).containsExactlyElementsOf(expected);
      assertThat(pages).isEqualTo((3000 + pageSize - 1) / pageSize);
    }
    String middle = expected.get(1500) + "0";
    assertThat(store.list(Optional.of(middle), 3).items()).extracting(TableRegistration::name)
        .containsExactlyElementsOf(names.tailSet(middle, false).stream().limit(3).toList());
  }

  @Test
  void racingCasRoundsHaveExactlyOneWinnerAndLoseNoUpdate() throws Exception {
    int threads = 8;
    int rounds = 20;
    TableRegistration v1 = firstVersion("contended", fence.term());
    store.create(fence, v1, Optional.empty());
    CyclicBarrier barrier = new CyclicBarrier(threads);
    AtomicIntegerArray winners = new AtomicIntegerArray(rounds);
    AtomicReferenceArray<String> winningSchema = new AtomicReferenceArray<>(rounds);
    AtomicInteger conflicts = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "cas-racer"));
    try {
      List<Future<?>> racers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int racer = t;
        racers.add(pool.submit(() -> {
          for (int round = 0; round < rounds; round++) {
            barrier.await(60, TimeUnit.SECONDS);
            TableRegistration current = store.get("contended").orElseThrow();
            barrier.await(60, TimeUnit.SECONDS);
            String schema = "{\"racer\":" + racer + ",\"round\":" + round + "}";
            TableRegistration next = current.withVersion(current.version() + 1, schema, fence.term(),
                current.updatedAt().plusMillis(1));
            try {
              store.commit(fence, current, next, Optional.empty());
              winners.incrementAndGet(round);
              winningSchema.set(round, schema);
            } catch (RegistryConflictException e) {
              assertThat(e).isExactlyInstanceOf(RegistryConflictException.class);
              conflicts.incrementAndGet();
            }
          }
          return null;
        }));
      }
      for (Future<?> racer : racers) racer.get(100, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }

    for (int round = 0; round < rounds; round++) {
      assertThat(winners.get(round)).as("winners of round %d", round).isEqualTo(1);
    }
    assertThat(conflicts.get()).isEqualTo(rounds * (threads - 1));
    TableRegistration last = store.get("contended").orElseThrow();
    assertThat(last.version()).isEqualTo(1 + rounds);
    assertThat(last.schema()).isEqualTo(winningSchema.get(rounds - 1));
    assertThat(store.history("contended", v1.generation())).extracting(VersionRecord::version)
        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 1 + rounds).boxed().toList());
  }

  @Test
  void snapshotPinsAreStoredReadListedAndDeletedByAnyNode() throws Exception {
    java.time.Instant at = RegistryFixtures.T0;
    SnapshotPin first = new SnapshotPin("pin-b", "ann", at, at.plusSeconds(7200), List.of(
        new SnapshotPin.Table("Orders", "g1", "/data/orders/g1/", 3),
        new SnapshotPin.Table("lineitem", "g2", "s3://b/p/lineitem/g2/", 9)));
    SnapshotPin second = new SnapshotPin("pin-a", "bob", at.plusSeconds(1), at.plusSeconds(60),
        List.of(new SnapshotPin.Table("orders", "g1", "/data/orders/g1/", 4)));
    assertThat(store.pin("pin-b")).isEmpty();
    assertThat(store.pins()).isEmpty();
    store.putPin(first);
    store.putPin(second);
    assertThat(store.pin("pin-b")).contains(first);
    assertThat(store.pin("pin-b").orElseThrow().table("ORDERS").orElseThrow().version()).isEqualTo(3);
    assertThat(store.pins()).containsExactly(second, first);
    // Not fenced: a deposed leader's node (or any follower) still creates and removes pins.
    store.putPin(first);
    assertThat(store.pins()).hasSize(2);
    store.deletePin("pin-a");
    store.deletePin("pin-a");
    assertThat(store.pins()).containsExactly(first);
    assertThat(store.pin("pin-a")).isEmpty();
  }

  @Test
  void anUnreachableBackendThrowsUnavailableNeverEmptyOrNotFound() throws Exception {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, key(v1, "k", 1));
    TableRegistration gone = firstVersion("gone", fence.term());
    store.create(fence, gone, Optional.empty());
    store.drop(fence, gone, tombstone(gone));
    NodeInfo node = new NodeInfo("node-a", "10.0.0.1:8815", "10.0.0.1:7000", RegistryFixtures.T0);
    store.heartbeat(node);
    LeaderLease lease = store.lease().orElseThrow();

    makeUnreachable(store);

    TableRegistration v2 = nextVersion(v1, fence.term());
    List<ThrowingCallable> calls = List.of(
        () -> store.get("t"),
        () -> store.get("missing"),
        () -> store.list(Optional.empty(), 10),
        () -> store.history("t", v1.generation()),
        () -> store.idempotencyRecord("t", v1.generation(), "k"),
        () -> store.idempotencyRecords("t", v1.generation(), Optional.empty(), 10),
        () -> store.tombstones(),
        () -> store.lease(),
        () -> store.nodes(),
        () -> store.pins(),
        () -> store.pin("p"),
        () -> store.create(fence, firstVersion("other", fence.term()), Optional.empty()),
        () -> store.commit(fence, v1, v2, Optional.empty()),
        () -> store.drop(fence, v1, tombstone(v1)),
        () -> store.deleteTombstone(fence, tombstone(gone)),
        () -> store.deleteHistory(fence, "gone", gone.generation(), List.of(1L)),
        () -> store.deleteIdempotencyRecords(fence, "t", v1.generation(), List.of("k")),
        () -> store.writeLease(Optional.of(lease), new LeaderLease("node-a", "x", lease.term(), FOREVER)),
        () -> store.heartbeat(node));
    for (ThrowingCallable call : calls) {
      assertThatThrownBy(call).isInstanceOf(RegistryUnavailableException.class);
    }
  }

  @Test
  void expiredHistoryIsDeletedButTheRegisteredVersionNeverIs() {
    TableRegistration v1 = firstVersion("t", fence.term());
    store.create(fence, v1, Optional.empty());
    List<TableRegistration> versions = new ArrayList<>(List.of(v1));
    for (int i = 0; i < 3; i++) {
      TableRegistration next = nextVersion(versions.get(versions.size() - 1), fence.term());
      store.commit(fence, versions.get(versions.size() - 1), next, Optional.empty());
      versions.add(next);
    }
    String generation = v1.generation();
    List<VersionRecord> history = store.history("t", generation);
    List<VersionRecord> expired = HistoryRetention.expired(history,
        v1.updatedAt().plusMillis(2500), Optional.empty());
    assertThat(expired).extracting(VersionRecord::version).containsExactly(1L, 2L);

    assertThatThrownBy(() -> store.deleteHistory(fence, "t", generation, List.of(1L, 4L)))
        .isExactlyInstanceOf(RegistryConflictException.class);
    assertThat(store.history("t", generation)).isEqualTo(history);
    store.deleteHistory(fence, "t", generation, expired.stream().map(VersionRecord::version).toList());
    store.deleteHistory(fence, "t", generation, List.of(1L));
    assertThat(store.history("t", generation)).containsExactly(historyItem(versions.get(2)),
        historyItem(versions.get(3)));

    store.drop(fence, versions.get(3), tombstone(versions.get(3)));
    store.deleteHistory(fence, "t", generation, List.of(3L, 4L));
    assertThat(store.history("t", generation)).isEmpty();
  }

  @Test
  void expiringMoreItemsThanOneTransactionHoldsDeletesThemAll() {
    TableRegistration current = firstVersion("big", fence.term());
    store.create(fence, current, key(current, "key-1", 1));
    List<Long> oldVersions = new ArrayList<>();
    List<String> keys = new ArrayList<>(List.of("key-1"));
    for (int i = 2; i <= 130; i++) {
      TableRegistration next = nextVersion(current, fence.term());
      store.commit(fence, current, next, key(next, "key-" + i, i));
      oldVersions.add(current.version());
      keys.add("key-" + i);
      current = next;
    }
    String generation = current.generation();

    store.deleteHistory(fence, "big", generation, oldVersions);
    store.deleteIdempotencyRecords(fence, "big", generation, keys);

    assertThat(store.history("big", generation)).containsExactly(historyItem(current));
    assertThat(store.idempotencyRecords("big", generation, Optional.empty(), 500).items()).isEmpty();
  }

  @Test
  void idempotencyRecordsPageInKeyOrderAndExpire() {
    TableRegistration current = firstVersion("t", fence.term());
    store.create(fence, current, key(current, "key-0", 0));
    for (int i = 1; i < 5; i++) {
      TableRegistration next = nextVersion(current, fence.term());
      store.commit(fence, current, next, key(next, "key-" + i, i));
      current = next;
    }
    String generation = current.generation();
    List<String> seen = new ArrayList<>();
    Optional<String> cursor = Optional.empty();
    int pages = 0;
    do {
      Page<IdempotencyRecord> page = store.idempotencyRecords("t", generation, cursor, 2);
      page.items().forEach(r -> seen.add(r.key()));
      cursor = page.next();
      pages++;
    } while (cursor.isPresent());
    assertThat(seen).containsExactly("key-0", "key-1", "key-2", "key-3", "key-4");
    assertThat(pages).isEqualTo(3);

    store.deleteIdempotencyRecords(fence, "t", generation, List.of("key-0", "key-3", "never-used"));
    assertThat(store.idempotencyRecords("t", generation, Optional.empty(), 10).items())
        .extracting(IdempotencyRecord::key).containsExactly("key-1", "key-2", "key-4");
    assertThat(store.idempotencyRecord("t", generation, "key-3")).isEmpty();
  }
}
