package dev.lake.metasrv;

import static dev.lake.metasrv.MetasrvHarness.range;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.CompactionOptions;
import dev.lake.registry.TableRegistration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md "The registry's data model" / invariant 9: "Generation directories that no registration or tombstone
 * names (a crashed create) are removed when older than the guard." A create that loses the race to another create
 * (ALREADY_EXISTS or ABORTED) or crashes after staging leaves such a directory behind.
 */
class OrphanGenerationSweepTest {
  private static final Duration GUARD = Duration.ofHours(6);

  @TempDir
  Path dir;

  @Test
  void generationDirectoryNothingNamesIsRemovedAfterOrphanGuardOnly() {
    MutableClock clock = new MutableClock(Instant.now());
    MaintenanceSettings settings = new MaintenanceSettings(Duration.ofHours(1), Duration.ofDays(2), GUARD,
        CompactionOptions.defaults());
    try (MetasrvHarness lake = new MetasrvHarness(dir, clock, settings, WriteInterceptor.NONE)) {
      lake.create("t", range(0, 5));
      lake.create("u", range(0, 5));
      TableRegistration dropped = lake.writes.drop("u");
      TableRegistration named = lake.registration("t");
      // A create of "t" that staged its data files and never registered (it lost the race, or crashed).
      String crashed = lake.locations.locationOf("t", UUID.randomUUID().toString());
      lake.engine.stage(crashed, lake.reader(range(100, 110)));
      assertThat(Path.of(crashed)).isDirectory();

      MaintenanceScheduler pass = new MaintenanceScheduler(lake.store, lake.maintenance, lake.leadership);
      pass.runOnce();
      assertThat(Path.of(crashed)).as("younger than the guard: it may be an ingest still streaming").isDirectory();

      clock.advance(GUARD.plusMinutes(5));
      pass.runOnce();

      assertThat(Files.exists(Path.of(crashed))).as("a generation directory nothing names, older than the guard")
          .isFalse();
      assertThat(Path.of(named.location())).as("the registered incarnation").isDirectory();
      assertThat(Path.of(dropped.location())).as("a tombstoned incarnation inside its drop grace").isDirectory();
      assertThat(lake.values("t")).containsExactlyInAnyOrderElementsOf(range(0, 5));
    }
  }
}
