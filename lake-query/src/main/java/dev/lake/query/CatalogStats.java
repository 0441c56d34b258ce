package dev.lake.query;

import java.time.Duration;
import java.util.Objects;

/**
 * Counters of a {@link CachingCatalog} since it was created (plain numbers; no metrics library).
 *
 * @param hits look-ups answered without a registry call (snapshot, this node's own writes, a cached point read or
 *     a cached "no such table")
 * @param misses look-ups of a name absent from the snapshot that needed a point read (their own or a concurrent one
 *     they joined)
 * @param pointLoads point reads ({@code MetaStore.get}) actually issued
 * @param historyLoads history reads ({@code MetaStore.history}) actually issued (time travel)
 * @param refreshes successful full refreshes (listings of the registry)
 * @param refreshFailures failed full refreshes
 * @param snapshotAge how old the snapshot served now is (since its listing started); refused past the staleness
 *     bound
 * @param tables registrations in the snapshot
 */
public record CatalogStats(long hits, long misses, long pointLoads, long historyLoads, long refreshes,
    long refreshFailures, Duration snapshotAge, int tables) {
  public CatalogStats {
    Objects.requireNonNull(snapshotAge, "snapshotAge");
  }
}
