package dev.lake.flight.spool;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The quota of this node's PollFlightInfo spool ({@code results.max-bytes}, {@code results.max-bytes-per-user}):
 * counts the bytes of the results this node's jobs are writing and have written until those expire (the sweep
 * deletes them at {@code results.lifetime}), in total and per user. A job whose next batch would go over either
 * limit fails with RESOURCE_EXHAUSTED and deletes what it wrote, so one client cannot fill the data root's disk.
 * Thread-safe.
 */
public final class SpoolQuota {
  private final long maxBytes;
  private final long maxBytesPerUser;
  private final Clock clock;
  private final List<Kept> kept = new ArrayList<>();
  private final Map<String, Long> byUser = new HashMap<>();
  private long total;

  /** Bytes of a finished result, counted until it expires. */
  private record Kept(String user, long bytes, Instant expiresAt) {}

  public SpoolQuota(long maxBytes, long maxBytesPerUser, Clock clock) {
    this.maxBytes = maxBytes;
    this.maxBytesPerUser = maxBytesPerUser;
    this.clock = clock;
  }

  /** Starts counting one job of {@code user}. */
  public Charge open(String user) {
    return new Charge(user);
  }

  /** Bytes counted now (running jobs and unexpired results). */
  public synchronized long used() {
    expire();
    return total;
  }

  private void expire() {
    Instant now = clock.instant();
    kept.removeIf(k -> {
      if (k.expiresAt().isAfter(now)) {
        return false;
      }
      subtract(k.user(), k.bytes());
      return true;
    });
  }

  private void subtract(String user, long bytes) {
    total -= bytes;
    byUser.computeIfPresent(user, (u, b) -> b - bytes <= 0 ? null : b - bytes);
  }

  /** What one job has written so far. */
  public final class Charge {
    private final String user;
    private long bytes;
    private boolean closed;

    private Charge(String user) {
      this.user = user;
    }

    /**
     * Counts {@code more} bytes just written.
     *
     * @throws SpoolQuotaException when the node's or the user's quota would be exceeded
     */
    public void add(long more) {
      synchronized (SpoolQuota.this) {
        expire();
        long mine = byUser.getOrDefault(user, 0L);
        if (total + more > maxBytes) {
          throw new SpoolQuotaException("the result spool is full (results.max-bytes = " + maxBytes + " bytes, "
              + "spooled results count until they expire): narrow the query, or fetch and let earlier results "
              + "expire, then retry");
        }
        if (mine + more > maxBytesPerUser) {
          throw new SpoolQuotaException("user '" + user + "' has " + mine + " bytes of results spooled; this one "
              + "would exceed results.max-bytes-per-user (" + maxBytesPerUser + "): narrow the query or wait for "
              + "earlier results to expire");
        }
        total += more;
        byUser.merge(user, more, Long::sum);
        bytes += more;
      }
    }

    /** The job finished: its bytes stay counted until {@code expiresAt}. */
    public void keep(Instant expiresAt) {
      synchronized (SpoolQuota.this) {
        if (!closed) {
          closed = true;
          kept.add(new Kept(user, bytes, expiresAt));
        }
      }
    }

    /** The job failed or was stopped and deleted what it wrote. */
    public void release() {
      synchronized (SpoolQuota.this) {
        if (!closed) {
          closed = true;
          subtract(user, bytes);
        }
      }
    }
  }
}
