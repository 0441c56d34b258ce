package dev.lake.metasrv;

import dev.lake.engine.CompactionOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * Knobs of maintenance (documented in docs/config.md).
 *
 * @param retentionWindow every version current at any moment within this window stays readable (docs/design.md
 *     invariant 9: it covers the longest query, the ticket lifetime, the catalog staleness bound and the TTL)
 * @param dropGrace a dropped incarnation's files are deleted only this long after the drop
 * @param orphanGuard an unreferenced data file (or a generation directory nothing names) is deleted only once it
 *     is older than this; longer than the longest ingest, shorter than Lance's own 7 days
 * @param compaction how to compact
 */
public record MaintenanceSettings(Duration retentionWindow, Duration dropGrace, Duration orphanGuard,
    CompactionOptions compaction) {
  public MaintenanceSettings {
    positive("retention.window", retentionWindow);
    positive("gc.drop-grace", dropGrace);
    positive("gc.orphan-guard", orphanGuard);
    Objects.requireNonNull(compaction, "compaction");
    if (orphanGuard.compareTo(Duration.ofDays(7)) >= 0) {
      throw new IllegalArgumentException("gc.orphan-guard must be below 7 days (Lance's own cleanup horizon)");
    }
  }

  public static MaintenanceSettings defaults() {
    return new MaintenanceSettings(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(6),
        CompactionOptions.defaults());
  }

  private static void positive(String key, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(key + " must be a positive duration");
    }
  }
}
