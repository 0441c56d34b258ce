package dev.lake.query;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the {@link CachingCatalog} (config keys in brackets).
 *
 * @param ttl how long a snapshot of the registry counts as fresh; also how long a point-read registration and a
 *     table's history are kept ({@code catalog.ttl}, default 30 s)
 * @param stalenessBound how old the last good snapshot may grow while the registry does not answer before queries
 *     are refused with UNAVAILABLE ({@code catalog.staleness-bound}, default 5 min); must exceed the refresh
 *     interval, and counts towards the retention window (docs/design.md invariant 9)
 * @param negativeTtl how long "no such table" from a point read is believed ({@code catalog.negative-ttl},
 *     default 2 s)
 * @param refreshInterval the period of the background full refresh ({@code catalog.refresh-interval}, default =
 *     ttl, but at most half the staleness bound so that a healthy registry never lets the snapshot age past it)
 */
public record CatalogSettings(Duration ttl, Duration stalenessBound, Duration negativeTtl, Duration refreshInterval) {
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_STALENESS_BOUND = Duration.ofMinutes(5);
  public static final Duration DEFAULT_NEGATIVE_TTL = Duration.ofSeconds(2);

  public CatalogSettings {
    positive("ttl", ttl);
    positive("stalenessBound", stalenessBound);
    positive("negativeTtl", negativeTtl);
    positive("refreshInterval", refreshInterval);
    if (stalenessBound.compareTo(refreshInterval) <= 0) {
      throw new IllegalArgumentException("catalog.staleness-bound (" + stalenessBound + ") must be longer than the"
          + " refresh interval (" + refreshInterval + "), or every failed refresh would refuse queries");
    }
  }

  /** ttl 30 s, staleness bound 5 min, negative ttl 2 s, refresh every ttl. */
  public static CatalogSettings defaults() {
    return of(DEFAULT_TTL, DEFAULT_STALENESS_BOUND, DEFAULT_NEGATIVE_TTL);
  }

  /** These settings with the default refresh interval: {@code ttl}, at most half the staleness bound. */
  public static CatalogSettings of(Duration ttl, Duration stalenessBound, Duration negativeTtl) {
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(stalenessBound, "stalenessBound");
    Duration half = stalenessBound.dividedBy(2);
    return new CatalogSettings(ttl, stalenessBound, negativeTtl, ttl.compareTo(half) <= 0 ? ttl : half);
  }

  public CatalogSettings withRefreshInterval(Duration interval) {
    return new CatalogSettings(ttl, stalenessBound, negativeTtl, interval);
  }

  private static void positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("catalog " + name + " must be positive, was " + value);
    }
  }
}
