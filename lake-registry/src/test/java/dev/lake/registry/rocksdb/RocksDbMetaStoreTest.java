package dev.lake.registry.rocksdb;

import static dev.lake.registry.RegistryFixtures.firstVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.LeaderLease;
import dev.lake.registry.LeaseRejectedException;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.support.RetryPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Behaviour of the RocksDB backend beyond the shared contract: restarts, the directory lock, damaged items. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RocksDbMetaStoreTest {
  private static final Instant FOREVER = Instant.parse("9999-12-31T23:59:59Z");
  @TempDir Path dir;

  @Test
  void registrationsAndTheLeaseSurviveARestartAndEachStartTakesTheNextTerm() {
    TableRegistration t;
    LeaderLease first;
    try (RocksDbMetaStore store = RocksDbMetaStore.open(dir)) {
      first = store.takeLeaseAtStartup("node-a", "127.0.0.1:7000", FOREVER);
      t = firstVersion("t", first.term());
      store.create(first.fence(), t, Optional.empty());
    }
    try (RocksDbMetaStore store = RocksDbMetaStore.open(dir)) {
      assertThat(store.get("t")).contains(t);
      assertThat(store.lease()).contains(first);
      LeaderLease second = store.takeLeaseAtStartup("node-a", "127.0.0.1:7000", FOREVER);
      assertThat(second.term()).isEqualTo(first.term() + 1);
      TableRegistration other = firstVersion("u", first.term());
      assertThatThrownBy(() -> store.create(first.fence(), other, Optional.empty()))
          .isInstanceOf(LeaseRejectedException.class);
      store.create(second.fence(), other, Optional.empty());
      assertThat(store.get("u")).contains(other);
    }
  }

  @Test
  void aSecondStoreOnTheSameDirectoryIsUnavailableAndSaysWhy() {
    try (RocksDbMetaStore store = RocksDbMetaStore.open(dir)) {
      assertThatThrownBy(() -> RocksDbMetaStore.open(dir))
          .isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining(dir.toAbsolutePath().toString())
          .hasMessageContaining("another process");
      assertThat(store.lease()).isEmpty();
    }
  }

  @Test
  void aDamagedItemIsUnavailableNeverNotFound() {
    try (RocksAccess access = new RocksAccess(dir, RocksDbSettings.defaults())) {
      access.transact("damage", (tx, ro) -> tx.put(RocksKeys.registration("t"), RocksKeys.bytes("{not json")));
    }
    try (RocksDbMetaStore store = RocksDbMetaStore.open(dir)) {
      assertThatThrownBy(() -> store.get("t")).isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("r/t").hasMessageContaining("TableRegistration");
      assertThatThrownBy(() -> store.list(Optional.empty(), 10)).isInstanceOf(RegistryUnavailableException.class);
    }
  }

  @Test
  void anUnknownLayoutIsRefusedAtOpen() {
    try (RocksAccess access = new RocksAccess(dir, RocksDbSettings.defaults())) {
      access.transact("future layout", (tx, ro) -> tx.put(RocksKeys.FORMAT, RocksKeys.bytes("99")));
    }
    assertThatThrownBy(() -> RocksDbMetaStore.open(dir)).isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("layout 99");
  }

  @Test
  void aLockHeldLongerThanAllRetriesEndsUnavailableWithNothingWritten() throws Exception {
    RocksDbSettings impatient = new RocksDbSettings(Duration.ofMillis(20),
        new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5)), false);
    try (RocksAccess access = new RocksAccess(dir, impatient)) {
      CountDownLatch locked = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      ExecutorService holder = Executors.newSingleThreadExecutor(r -> new Thread(r, "lock-holder"));
      try {
        Future<?> holding = holder.submit(() -> access.transact("hold", (tx, ro) -> {
          tx.getForUpdate(ro, RocksKeys.LEASE, true);
          locked.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }));
        assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> access.transact("blocked", (tx, ro) -> {
          tx.getForUpdate(ro, RocksKeys.LEASE, true);
          tx.put(RocksKeys.LEASE, RocksKeys.bytes("x"));
        })).isInstanceOf(RegistryUnavailableException.class).hasMessageContaining("3 attempts");
        release.countDown();
        holding.get(30, TimeUnit.SECONDS);
      } finally {
        release.countDown();
        holder.shutdownNow();
      }
      byte[] lease = access.read("check", db -> db.get(RocksKeys.LEASE));
      assertThat(lease).isNull();
    }
  }

  @Test
  void closingUnderConcurrentReadsNeverCrashesAndLaterCallsAreUnavailable() throws Exception {
    RocksDbMetaStore store = RocksDbMetaStore.open(dir);
    LeaderLease lease = store.takeLeaseAtStartup("node-a", "127.0.0.1:7000", FOREVER);
    store.create(lease.fence(), firstVersion("t", lease.term()), Optional.empty());
    ExecutorService readers = Executors.newFixedThreadPool(4, r -> new Thread(r, "reader"));
    CountDownLatch reading = new CountDownLatch(4);
    AtomicInteger unavailable = new AtomicInteger();
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        futures.add(readers.submit(() -> {
          reading.countDown();
          while (true) {
            try {
              assertThat(store.get("t")).isPresent();
              store.list(Optional.empty(), 10);
            } catch (RegistryUnavailableException e) {
              unavailable.incrementAndGet();
              return null;
            }
          }
        }));
      }
      assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();
      store.close();
      for (Future<?> f : futures) f.get(30, TimeUnit.SECONDS);
    } finally {
      readers.shutdownNow();
    }
    assertThat(unavailable.get()).isEqualTo(4);
    assertThatThrownBy(() -> store.get("t")).isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("closed");
  }
}
