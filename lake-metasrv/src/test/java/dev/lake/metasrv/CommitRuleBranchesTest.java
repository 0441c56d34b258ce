package dev.lake.metasrv;

import static dev.lake.metasrv.MetasrvHarness.range;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.engine.TableChange;
import dev.lake.registry.LeaseRejectedException;
import dev.lake.registry.TableRegistration;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The branches of docs/design.md's commit rule (invariant 2) on one leader with real RocksDB and Lance, each driven by
 * a foreign commit injected at the exact point of the protocol where it can land: before the read (restore), between
 * the read and the commit (Lance refuses, or rebases onto it), during a compaction's rewrite (stale work), and the
 * lease lost between the Lance commit and the registry write.
 */
class CommitRuleBranchesTest {
  @TempDir
  Path dir;

  /** Runs at each {@link WriteInterceptor#beforeLanceCommit} while set: (location, read version). */
  private final AtomicReference<Consumer<long[]>> beforeCommit = new AtomicReference<>();
  private final AtomicReference<Runnable> afterPrepared = new AtomicReference<>();
  private final AtomicInteger commitAttempts = new AtomicInteger();
  private final AtomicReference<String> commitLocation = new AtomicReference<>();
  private MetasrvHarness lake;

  @BeforeEach
  void start() {
    WriteInterceptor interceptor = new WriteInterceptor() {
      @Override
      public void beforeLanceCommit(String table, String location, long readVersion) {
        commitAttempts.incrementAndGet();
        commitLocation.set(location);
        Consumer<long[]> hook = beforeCommit.get();
        if (hook != null) {
          hook.accept(new long[] {readVersion});
        }
      }

      @Override
      public void afterCompactionPrepared(String table) {
        Runnable hook = afterPrepared.getAndSet(null);
        if (hook != null) {
          hook.run();
        }
      }
    };
    lake = new MetasrvHarness(dir, Clock.systemUTC(), MaintenanceSettings.defaults(), interceptor);
  }

  @AfterEach
  void stop() {
    lake.close();
  }

  /**
   * Issue 18, item 2: a Restore committed by another writer (a deposed leader that passed its gate just before it
   * was paused) between this leader's read and its commit makes Lance refuse the append. The leader treats it as a
   * foreign commit: re-reads, restores, retries, and acknowledges; when the foreign writer keeps doing it, the bound
   * is spent and the answer is ABORTED (a retryable conflict), never an internal error, and nothing is lost.
   */
  @Test
  void leaderToleratesForeignRestoreDuringAppend() {
    lake.create("t", List.of(1L, 2L));
    lake.append("t", List.of(3L));
    TableRegistration registered = lake.registration("t");

    AtomicInteger foreignRestores = new AtomicInteger();
    beforeCommit.set(read -> {
      if (foreignRestores.get() < 1) {
        foreignRestores.incrementAndGet();
        lake.engine.restore(registered.location(), registered.version());
      }
    });
    commitAttempts.set(0);
    WriteResult acknowledged = lake.append("t", List.of(4L));
    assertThat(foreignRestores.get()).isEqualTo(1);
    assertThat(commitAttempts.get()).as("refused once, committed on the second attempt").isEqualTo(2);
    assertThat(acknowledged.rowCount()).isEqualTo(1);
    assertThat(acknowledged.registration()).isEqualTo(lake.registration("t"));
    assertThat(lake.values("t")).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    TableRegistration after = lake.registration("t");
    assertThat(lake.engine.dataChangingVersionsAfter(after.location(), after.version())).isEmpty();

    // A foreign writer that restores before every attempt: the bound is spent, ABORTED, the table unchanged.
    beforeCommit.set(read -> lake.engine.restore(after.location(), after.version()));
    assertThatThrownBy(() -> lake.append("t", List.of(5L))).isInstanceOf(WriteConflictException.class)
        .hasMessageContaining("retry");
    beforeCommit.set(null);
    assertThat(lake.registration("t")).isEqualTo(after);
    assertThat(lake.values("t")).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);

    // The next write repairs and commits normally.
    lake.append("t", List.of(6L));
    assertThat(lake.values("t")).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 6L);
  }

  /**
   * A commit Lance cannot refuse (a deposed leader's, resumed after it passed its gate) landing while the leader
   * chooses its read version — right after the check for unregistered data commits — never becomes part of a
   * registered version: it lands after the read version, the engine's check after the commit finds it, and the
   * retry restores. (Found by the three-process pause round: a resumed old leader's append was registered twice.)
   */
  @Test
  void foreignCommitWhileChoosingTheReadVersionIsNeverRegistered() {
    lake.create("t", List.of(1L, 2L));
    AtomicInteger checks = new AtomicInteger();
    dev.lake.engine.TableEngine racing = (dev.lake.engine.TableEngine) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {dev.lake.engine.TableEngine.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(lake.engine, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("dataChangingVersionsAfter") && checks.getAndIncrement() == 0) {
            // the foreign append lands just after the check answered
            TableRegistration r = lake.registration("t");
            lake.engine.commit(r.location(), lake.engine.latestVersion(r.location()),
                new TableChange.Append(lake.engine.stage(r.location(), lake.reader(List.of(99L)))));
          }
          return result;
        });
    WriteCoordinator writes = new WriteCoordinator(lake.store, racing, lake.leadership, new TableLocks(30_000),
        lake.locations, lake.allocator, Clock.systemUTC(), WriteInterceptor.NONE);
    writes.ingest(new IngestRequest("t", IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.APPEND,
        Optional.empty()), lake.reader(List.of(3L)));
    assertThat(lake.values("t")).as("the foreign row is not registered").containsExactlyInAnyOrder(1L, 2L, 3L);
  }

  /** Issue 19: each branch of the commit rule at the metasrv level. */
  @Test
  void commitRuleBranchesAtMetasrvLevel() {
    lake.create("t", List.of(1L, 2L));
    TableRegistration r1 = lake.registration("t");

    // Restore: an unregistered data commit (a write whose registry write failed) is undone before the next write.
    long orphan = lake.engine.commit(r1.location(), r1.version(),
        new TableChange.Append(lake.engine.stage(r1.location(), lake.reader(List.of(99L)))));
    assertThat(orphan).isGreaterThan(r1.version());
    lake.append("t", List.of(3L));
    assertThat(lake.values("t")).containsExactlyInAnyOrder(1L, 2L, 3L);
    TableRegistration r2 = lake.registration("t");
    assertThat(r2.version()).as("restore, then the append").isEqualTo(orphan + 2);
    assertThat(lake.told).as("the listener heard of each acknowledged registration").containsExactly(r1, r2);

    // Foreign commit: an append lands between the read and the commit; Lance rebases onto it, the engine finds it
    // between the read and the new version, the new version is not registered, and the retry restores first.
    AtomicInteger foreign = new AtomicInteger();
    beforeCommit.set(read -> {
      if (foreign.getAndIncrement() == 0) {
        lake.engine.commit(r2.location(), read[0],
            new TableChange.Append(lake.engine.stage(r2.location(), lake.reader(List.of(98L)))));
      }
    });
    lake.append("t", List.of(4L));
    beforeCommit.set(null);
    assertThat(lake.values("t")).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
    TableRegistration r3 = lake.registration("t");
    assertThat(lake.engine.dataChangingVersionsAfter(r3.location(), r3.version())).isEmpty();
    assertThat(lake.told).as("the unregistered rebased version was never told").containsExactly(r1, r2, r3);

    // Stale maintenance: an append registered while the compaction was being rewritten; the rewrite is skipped.
    for (long i = 5; i <= 8; i++) {
      lake.append("t", List.of(i));
    }
    afterPrepared.set(() -> lake.append("t", List.of(9L)));
    Optional<TableRegistration> compacted = lake.maintenance.compact("t");
    assertThat(compacted).as("stale compaction skipped").isEmpty();
    TableRegistration r4 = lake.registration("t");
    assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(range(1, 10));
    assertThat(lake.engine.latestVersion(r4.location())).as("no rewrite committed").isEqualTo(r4.version());
    assertThat(lake.told).as("a stale compaction tells nothing").hasSize(3 + 5).last().isEqualTo(r4);

    // Lease lost mid-commit: another process takes the lease (term + 1) after this leader committed to Lance and
    // before its registry write. The registry refuses the write; nothing is acknowledged; the version stays
    // unregistered and the new leader's first write restores it away.
    beforeCommit.set(read -> SingleNodeLeadership.takeLease(lake.store, "node-other", "127.0.0.1:0"));
    assertThatThrownBy(() -> lake.append("t", List.of(100L))).isInstanceOf(LeaseRejectedException.class);
    beforeCommit.set(null);
    assertThat(lake.registration("t")).isEqualTo(r4);
    assertThat(lake.engine.dataChangingVersionsAfter(r4.location(), r4.version())).hasSize(1);
    assertThat(lake.told).as("a refused registry write tells nothing").hasSize(8).last().isEqualTo(r4);
    SingleNodeLeadership other = SingleNodeLeadership.takeLease(lake.store, "node-new", "127.0.0.1:0");
    WriteCoordinator newLeader = new WriteCoordinator(lake.store, lake.engine, other, new TableLocks(30_000),
        lake.locations, lake.allocator, Clock.systemUTC(), WriteInterceptor.NONE);
    newLeader.ingest(new IngestRequest("t", IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.APPEND,
        Optional.empty()), lake.reader(List.of(10L)));
    List<Long> expected = new ArrayList<>(range(1, 11));
    assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(expected);
    assertThatThrownBy(() -> lake.append("t", List.of(101L))).as("the deposed leader acknowledges nothing")
        .isInstanceOf(LeaseRejectedException.class);
    assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(expected);
  }
}
