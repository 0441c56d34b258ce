package dev.lake.metasrv;

import static dev.lake.metasrv.MetasrvHarness.range;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Maintenance inside the commit protocol (docs/design.md invariant 2, "Write flow"): a compaction is committed under
 * the table lock and registered with a CAS like any write; a compaction whose registration moved while it was being
 * rewritten is skipped, never forced, and never resurfaces later.
 */
class MaintenanceCommitTest {
  @TempDir
  Path dir;

  /** Runs once, at the next {@link WriteInterceptor#afterCompactionPrepared}, on maintenance's own thread. */
  private final AtomicReference<Runnable> afterPrepared = new AtomicReference<>();
  private final AtomicInteger prepared = new AtomicInteger();
  private MetasrvHarness lake;

  @BeforeEach
  void start() {
    WriteInterceptor interceptor = new WriteInterceptor() {
      @Override
      public void afterCompactionPrepared(String table) {
        prepared.incrementAndGet();
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

  @Test
  void maintenanceCommitsThroughRegistry() {
    lake.create("t", List.of(0L));
    for (long i = 1; i <= 50; i++) {
      lake.append("t", List.of(i * 10, i * 10 + 1));
    }
    TableRegistration before = lake.registration("t");
    List<Long> rowsBefore = lake.values("t");
    int fragmentsBefore = dataFiles(before.location(), before.version());

    MaintenanceReport report = lake.maintenance.maintain("t");

    TableRegistration after = lake.registration("t");
    assertThat(fragmentsBefore).as("one data file per write before maintenance").isEqualTo(51);
    assertThat(report.compactedTo()).as("maintenance reports the version it registered")
        .contains(after.version());
    assertThat(after.generation()).isEqualTo(before.generation());
    assertThat(after.version()).isGreaterThan(before.version());
    assertThat(after.version()).as("the registry's version is the engine's latest: the compaction commit was "
        + "registered, nothing unregistered lies beyond it").isEqualTo(lake.engine.latestVersion(after.location()));
    assertThat(lake.engine.dataChangingVersionsAfter(after.location(), after.version())).isEmpty();
    assertThat(dataFiles(after.location(), after.version())).as("fragments after compaction")
        .isLessThan(fragmentsBefore).isEqualTo(1);
    assertThat(lake.values("t")).as("compaction keeps the rows (as a multiset)")
        .containsExactlyInAnyOrderElementsOf(rowsBefore).hasSize(101);

    List<VersionRecord> history = lake.store.history("t", after.generation());
    assertThat(history.get(history.size() - 1).version()).isEqualTo(after.version());
    assertStrictlyIncreasing(history);
    assertThat(report.versionsRemoved()).as("nothing left the default retention window").isZero();

    // The next append builds on the registered compaction: no restore undoes it, no row comes back twice.
    lake.append("t", List.of(9_000L));
    TableRegistration appended = lake.registration("t");
    assertThat(dataFiles(appended.location(), appended.version())).isEqualTo(2);
    assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(concat(rowsBefore, List.of(9_000L)));
  }

  @Test
  void staleMaintenanceNeverOverwritesNewerRegistration() {
    lake.create("t", range(0, 3));
    for (long first = 10; first < 100; first += 10) {
      lake.append("t", range(first, first + 3));
    }
    List<Long> original = lake.values("t");
    AtomicReference<WriteResult> injected = new AtomicReference<>();
    afterPrepared.set(() -> injected.set(lake.append("t", range(1000, 1005))));

    Optional<TableRegistration> compacted = lake.maintenance.compact("t");

    assertThat(prepared.get()).as("the compaction was planned and rewritten").isEqualTo(1);
    assertThat(injected.get()).as("the append slipped in between planning and commit").isNotNull();
    assertThat(compacted).as("the stale compaction is skipped").isEmpty();
    TableRegistration registered = lake.registration("t");
    assertThat(registered).as("the injected append's registration stands")
        .isEqualTo(injected.get().registration());
    List<VersionRecord> history = lake.store.history("t", registered.generation());
    assertThat(history.get(history.size() - 1).version()).as("nothing was registered after the append")
        .isEqualTo(registered.version());
    assertThat(lake.values("t")).as("nothing lost: every row, including the injected append's")
        .containsExactlyInAnyOrderElementsOf(concat(original, range(1000, 1005)));

    lake.append("t", range(2000, 2002));
    assertThat(lake.values("t")).as("the next append does not surface the skipped rewrite (no duplicates)")
        .containsExactlyInAnyOrderElementsOf(concat(original, range(1000, 1005), range(2000, 2002)));
    assertStrictlyIncreasing(lake.store.history("t", registered.generation()));

    // A fresh compaction still works on the moved registration.
    Optional<TableRegistration> second = lake.maintenance.compact("t");
    assertThat(second).isPresent();
    assertThat(lake.values("t"))
        .containsExactlyInAnyOrderElementsOf(concat(original, range(1000, 1005), range(2000, 2002)));
  }

  @Test
  void staleCompactionAfterReplaceNeverBringsBackReplacedRows() {
    lake.create("t", range(0, 3));
    for (long first = 10; first < 60; first += 10) {
      lake.append("t", range(first, first + 3));
    }
    // Fragment ids restart after an Overwrite: a stale rewrite matched by id alone would bring the old rows back.
    afterPrepared.set(() -> lake.replace("t", range(500, 502)));

    assertThat(lake.maintenance.compact("t")).isEmpty();
    assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(range(500, 502));

    lake.append("t", range(600, 601));
    assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(concat(range(500, 502), range(600, 601)));
  }

  @Test
  void staleCompactionAfterDropAndRecreateLeavesReplacementIntact() {
    lake.create("t", range(0, 3));
    for (long first = 10; first < 60; first += 10) {
      lake.append("t", range(first, first + 3));
    }
    String oldGeneration = lake.registration("t").generation();
    AtomicReference<WriteResult> recreated = new AtomicReference<>();
    afterPrepared.set(() -> {
      lake.writes.drop("t");
      recreated.set(lake.create("t", range(700, 704)));
    });

    assertThat(lake.maintenance.compact("t")).isEmpty();
    TableRegistration now = lake.registration("t");
    assertThat(now).isEqualTo(recreated.get().registration());
    assertThat(now.generation()).isNotEqualTo(oldGeneration);
    assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(range(700, 704));
  }

  private int dataFiles(String location, long version) {
    return (int) lake.engine.referencedDataFiles(location, List.of(version)).stream()
        .filter(p -> p.startsWith("data/")).count();
  }

  private static void assertStrictlyIncreasing(List<VersionRecord> history) {
    for (int i = 1; i < history.size(); i++) {
      assertThat(history.get(i).version()).as("history versions strictly increase")
          .isGreaterThan(history.get(i - 1).version());
      assertThat(history.get(i).registeredAt()).isAfterOrEqualTo(history.get(i - 1).registeredAt());
    }
  }

  @SafeVarargs
  private static List<Long> concat(List<Long>... lists) {
    List<Long> out = new ArrayList<>();
    for (List<Long> list : lists) {
      out.addAll(list);
    }
    return out;
  }
}
