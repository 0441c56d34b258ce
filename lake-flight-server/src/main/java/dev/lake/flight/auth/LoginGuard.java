package dev.lake.flight.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.flight.security.GuardSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.arrow.flight.CallStatus;

/**
 * Checks passwords so that failed logins cannot exhaust a node or reveal which users exist:
 *
 * <ul>
 *   <li><b>Throttle.</b> After {@code auth.login-free-failures} consecutive failed logins, further attempts for the
 *       same user name, and from the same remote address, are refused at once (UNAUTHENTICATED, no hash computed)
 *       until a delay has passed: {@code auth.login-failure-delay} after the next failure, doubling with each
 *       consecutive one up to {@code auth.login-failure-max-delay}. A successful login clears its user's count; counts are forgotten after
 *       {@link #FORGET_AFTER} without failures. Unknown user names are throttled exactly like known ones.</li>
 *   <li><b>Bounded hashing.</b> At most {@code auth.max-concurrent-logins} password hashes run at once, at most
 *       {@code auth.max-queued-logins} more wait; beyond that a login is refused with UNAVAILABLE.</li>
 *   <li><b>Constant time.</b> An unknown user's password is checked against a dummy hash of the same cost, so a
 *       refusal takes as long for a user that does not exist as for a wrong password.</li>
 * </ul>
 *
 * Thread-safe; the counts are held per node (each node of a cluster throttles what it sees).
 */
public final class LoginGuard {
  /** How long a user's or an address's failure count is remembered after its last failure. */
  public static final Duration FORGET_AFTER = Duration.ofMinutes(15);
  private static final long MAX_TRACKED = 100_000;
  private static final long QUEUE_WAIT_SECONDS = 10;

  private final GuardSettings settings;
  private final LongSupplier ticker;
  private final Cache<String, Failures> byUser;
  private final Cache<String, Failures> byAddress;
  private final Semaphore hashing;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final String dummyHash;
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong throttledByUser = new AtomicLong();
  private final AtomicLong throttledByAddress = new AtomicLong();
  private final AtomicLong busy = new AtomicLong();

  /** Consecutive failures and the monotonic time before which further attempts are refused. */
  private record Failures(int count, long retryAtNanos) {}

  /** @param ticker monotonic nanoseconds */
  public LoginGuard(GuardSettings settings, LongSupplier ticker) {
    this.settings = settings;
    this.ticker = ticker;
    this.byUser = Caffeine.newBuilder().maximumSize(MAX_TRACKED).expireAfterWrite(FORGET_AFTER).build();
    this.byAddress = Caffeine.newBuilder().maximumSize(MAX_TRACKED).expireAfterWrite(FORGET_AFTER).build();
    this.hashing = new Semaphore(settings.maxConcurrentLogins(), true);
    this.dummyHash = new PasswordHasher().hash(java.util.UUID.randomUUID().toString().toCharArray());
  }

  /**
   * Checks {@code password} for {@code name} (looked up in {@code users}) as a login from {@code address}.
   *
   * @return the user name, when the password is right
   * @throws org.apache.arrow.flight.FlightRuntimeException UNAUTHENTICATED (wrong, unknown or throttled) or
   *     UNAVAILABLE (too many logins at once)
   */
  public String check(String name, char[] password, Optional<String> address, Map<String, User> users) {
    long now = ticker.getAsLong();
    refuseWhileThrottled(byUser, name, now, throttledByUser, "for this user");
    if (address.isPresent()) {
      refuseWhileThrottled(byAddress, address.get(), now, throttledByAddress, "from this address");
    }
    User user = users.get(name);
    boolean ok = verifyBounded(password, user == null ? dummyHash : user.passwordHash()) && user != null;
    if (ok) {
      byUser.invalidate(name);
      return name;
    }
    failed.incrementAndGet();
    long after = ticker.getAsLong();
    record(byUser, name, after);
    address.ifPresent(a -> record(byAddress, a, after));
    throw CallStatus.UNAUTHENTICATED.withDescription("wrong user name or password").toRuntimeException();
  }

  /** Logins refused for a wrong password or an unknown user (after a full hash). */
  public long failures() {
    return failed.get();
  }

  /** Logins refused by the throttle, without a hash: {@code byUser} for the user name, else for the address. */
  public long throttled(boolean byUserName) {
    return byUserName ? throttledByUser.get() : throttledByAddress.get();
  }

  /** Logins refused because too many were already waiting for a password check. */
  public long busy() {
    return busy.get();
  }

  private void refuseWhileThrottled(Cache<String, Failures> counts, String key, long now, AtomicLong counter,
      String scope) {
    if (settings.loginFailureDelay().isZero()) {
      return;
    }
    Failures f = counts.getIfPresent(key);
    if (f != null && f.retryAtNanos() - now > 0) {
      counter.incrementAndGet();
      long waitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(f.retryAtNanos() - now));
      throw CallStatus.UNAUTHENTICATED.withDescription("too many failed logins " + scope + ": retry in "
          + waitMillis + " ms (auth.login-failure-delay doubles with every failure, up to "
          + "auth.login-failure-max-delay)").toRuntimeException();
    }
  }

  private void record(Cache<String, Failures> counts, String key, long now) {
    if (settings.loginFailureDelay().isZero()) {
      return;
    }
    counts.asMap().compute(key, (k, f) -> {
      int count = f == null ? 1 : Math.min(f.count() + 1, 100_000);
      int delayed = count - settings.loginFreeFailures();
      return new Failures(count, delayed <= 0 ? now : now + delayNanos(delayed));
    });
  }

  private long delayNanos(int failures) {
    long base = settings.loginFailureDelay().toNanos();
    long max = settings.loginFailureMaxDelay().toNanos();
    int shift = Math.min(failures - 1, 40);
    return base > (max >> shift) ? max : Math.min(max, base << shift);
  }

  private boolean verifyBounded(char[] password, String hash) {
    if (inFlight.incrementAndGet() > settings.maxConcurrentLogins() + settings.maxQueuedLogins()) {
      inFlight.decrementAndGet();
      busy.incrementAndGet();
      throw CallStatus.UNAVAILABLE.withDescription("too many logins are being checked at once "
          + "(auth.max-concurrent-logins, auth.max-queued-logins): retry shortly").toRuntimeException();
    }
    try {
      if (!hashing.tryAcquire(QUEUE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        busy.incrementAndGet();
        throw CallStatus.UNAVAILABLE.withDescription("the login waited too long for a password check: retry "
            + "shortly").toRuntimeException();
      }
      try {
        return PasswordHasher.verify(password, hash);
      } finally {
        hashing.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CallStatus.UNAVAILABLE.withDescription("the login was interrupted").toRuntimeException();
    } finally {
      inFlight.decrementAndGet();
    }
  }
}
