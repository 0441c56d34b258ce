package dev.lake.flight.limits;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Per-user admission next to the node-wide one ({@link Admission}): a user may have at most {@code maxPerUser}
 * queries (DoGets and PollFlightInfo jobs) holding or waiting for a node slot at once ({@code
 * query.max-concurrent-per-user}); a further one is refused at once with RESOURCE_EXHAUSTED, so one user cannot
 * take every slot and the whole queue. Thread-safe.
 */
public final class UserLimits {
  private final int maxPerUser;
  private final ConcurrentHashMap<String, Integer> active = new ConcurrentHashMap<>();

  public UserLimits(int maxPerUser) {
    if (maxPerUser < 1) {
      throw new IllegalArgumentException("maxPerUser must be >= 1");
    }
    this.maxPerUser = maxPerUser;
  }

  /**
   * Counts one more query of {@code user}; close the permit when the query has ended (its slot given back).
   *
   * @throws UserLimitException when the user already has {@code maxPerUser} queries
   */
  public Permit acquire(String user) {
    boolean[] refused = new boolean[1];
    active.compute(user, (u, n) -> {
      int count = n == null ? 0 : n;
      if (count >= maxPerUser) {
        refused[0] = true;
        return n;
      }
      return count + 1;
    });
    if (refused[0]) {
      throw new UserLimitException("user '" + user + "' already runs or waits for " + maxPerUser + " queries "
          + "(query.max-concurrent-per-user = " + maxPerUser + "): wait for one to finish, then retry");
    }
    return new Permit(user);
  }

  /** Queries of {@code user} holding or waiting for a slot now. */
  public int active(String user) {
    return active.getOrDefault(user, 0);
  }

  public int maxPerUser() {
    return maxPerUser;
  }

  /** One counted query; {@link #close()} gives it back (once). */
  public final class Permit implements AutoCloseable {
    private final String user;
    private final AtomicBoolean released = new AtomicBoolean();

    private Permit(String user) {
      this.user = user;
    }

    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        active.computeIfPresent(user, (u, n) -> n <= 1 ? null : n - 1);
      }
    }
  }
}
