package dev.lake.metasrv;

import java.time.Duration;

/**
 * Timings of the leader lease (docs/design.md invariant 5; keys {@code lease.*} in docs/config.md).
 *
 * <p>The holder's write gate is open until {@code monotonic time at the start of its winning campaign + duration -
 * safetyMargin}. The margin covers the campaign's own I/O time and the largest wall-clock skew between any two nodes
 * (other nodes decide that the lease expired on their wall clock, from the lease item's {@code expiresAt}). Each
 * campaign's registry I/O is cut off after {@code campaignTimeout}, which must be strictly below the margin; a node
 * whose campaign timed out or failed demotes itself at once.
 *
 * @param duration how long a lease lasts from the start of the campaign that wrote it
 * @param safetyMargin how long before the lease ends the holder stops writing (covers the maximum clock skew)
 * @param campaignTimeout the most one campaign's registry I/O may take; below the margin
 * @param renewInterval the pause between two campaigns (renewals on the leader, take-over attempts elsewhere)
 */
public record LeaseSettings(Duration duration, Duration safetyMargin, Duration campaignTimeout,
    Duration renewInterval) {

  public LeaseSettings {
    positive("lease.duration", duration);
    positive("lease.safety-margin", safetyMargin);
    positive("lease.campaign-timeout", campaignTimeout);
    positive("lease.renew-interval", renewInterval);
    if (safetyMargin.compareTo(duration) >= 0) {
      throw new IllegalArgumentException("lease.safety-margin (" + safetyMargin + ") must be shorter than "
          + "lease.duration (" + duration + ")");
    }
    if (campaignTimeout.compareTo(safetyMargin) >= 0) {
      throw new IllegalArgumentException("lease.campaign-timeout (" + campaignTimeout + ") must be shorter than "
          + "lease.safety-margin (" + safetyMargin + "): a campaign's I/O must end before the margin is used up");
    }
    // A leader renews every renewInterval; each campaign takes at most campaignTimeout. The gate must stay open
    // from one successful renewal to the next: renewInterval + 2 x campaignTimeout < duration - safetyMargin.
    Duration window = duration.minus(safetyMargin);
    if (renewInterval.plus(campaignTimeout.multipliedBy(2)).compareTo(window) >= 0) {
      throw new IllegalArgumentException("lease.renew-interval (" + renewInterval + ") + 2 x lease.campaign-timeout ("
          + campaignTimeout + ") must be shorter than lease.duration - lease.safety-margin (" + window + "), or the "
          + "leader's write gate closes between two renewals");
    }
  }

  /** 10 s lease, 3 s safety margin, 2 s campaign timeout, renewal every 1 s. */
  public static LeaseSettings defaults() {
    return new LeaseSettings(Duration.ofSeconds(10), Duration.ofSeconds(3), Duration.ofSeconds(2),
        Duration.ofSeconds(1));
  }

  /** How long after the start of a winning campaign its write gate stays open. */
  public Duration gateWindow() {
    return duration.minus(safetyMargin);
  }

  private static void positive(String key, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(key + " must be a positive duration (e.g. 500ms, 10s)");
    }
  }
}
