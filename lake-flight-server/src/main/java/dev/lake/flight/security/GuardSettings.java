package dev.lake.flight.security;

import dev.lake.flight.values.ConfigValues;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one client may cost a node (keys in docs/config.md): frame and header limits of both Flight endpoints, the
 * throttle on failed logins, per-user query concurrency, the write-stall timeout of result streams and the quota of
 * the PollFlightInfo spool.
 *
 * @param maxHeaderListSize the largest header block (HTTP/2 header list: gRPC metadata, credentials included) a
 *     call may send ({@code server.max-header-list-size}); a larger one closes the connection before any work
 * @param maxInboundMessageSize the largest single gRPC message (one Flight batch or command) a call may send
 *     ({@code server.max-inbound-message-size}); a larger one is refused with RESOURCE_EXHAUSTED before it is read
 * @param loginFreeFailures how many consecutive failed logins of a user (or from an address) are answered without
 *     a delay ({@code auth.login-free-failures}): a mistyped password is retried at once
 * @param loginFailureDelay the delay after the next failed login; it doubles with every further consecutive failure
 *     ({@code auth.login-failure-delay})
 * @param loginFailureMaxDelay the longest such delay ({@code auth.login-failure-max-delay})
 * @param maxConcurrentLogins how many password checks run at once ({@code auth.max-concurrent-logins})
 * @param maxQueuedLogins how many more wait for one; beyond them a login is refused with UNAVAILABLE
 *     ({@code auth.max-queued-logins})
 * @param maxConcurrentPerUser how many queries one user may have running or waiting for a slot
 *     ({@code query.max-concurrent-per-user})
 * @param writeStallTimeout how long a result stream may wait for its client to read before it is stopped
 *     ({@code query.write-stall-timeout})
 * @param spoolMaxBytes how many bytes of PollFlightInfo results this node may keep spooled at once
 *     ({@code results.max-bytes})
 * @param spoolMaxBytesPerUser how many of them one user's results may take ({@code results.max-bytes-per-user})
 */
public record GuardSettings(int maxHeaderListSize, int maxInboundMessageSize, int loginFreeFailures,
    Duration loginFailureDelay,
    Duration loginFailureMaxDelay, int maxConcurrentLogins, int maxQueuedLogins, int maxConcurrentPerUser,
    Duration writeStallTimeout, long spoolMaxBytes, long spoolMaxBytesPerUser) {
  /** The keys this record reads, with their defaults. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("server.max-header-list-size", "16KB");
    keys.put("server.max-inbound-message-size", "256MB");
    keys.put("auth.login-free-failures", "3");
    keys.put("auth.login-failure-delay", "250ms");
    keys.put("auth.login-failure-max-delay", "30s");
    keys.put("auth.max-concurrent-logins", "4");
    keys.put("auth.max-queued-logins", "64");
    keys.put("query.max-concurrent-per-user", "8");
    keys.put("query.write-stall-timeout", "2m");
    keys.put("results.max-bytes", "10GB");
    keys.put("results.max-bytes-per-user", "2GB");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public GuardSettings {
    if (maxHeaderListSize < 1024 || maxHeaderListSize > 16 << 20) {
      throw new IllegalArgumentException("server.max-header-list-size must be 1KB..16MB, was " + maxHeaderListSize);
    }
    if (maxInboundMessageSize < 1 << 20) {
      throw new IllegalArgumentException("server.max-inbound-message-size must be at least 1MB, was "
          + maxInboundMessageSize);
    }
    if (loginFreeFailures < 0 || loginFreeFailures > 1000) {
      throw new IllegalArgumentException("auth.login-free-failures must be 0..1000, was " + loginFreeFailures);
    }
    if (loginFailureDelay == null || loginFailureDelay.isNegative()) {
      throw new IllegalArgumentException("auth.login-failure-delay must be a duration >= 0 (0 turns throttling off)");
    }
    if (loginFailureMaxDelay == null || loginFailureMaxDelay.compareTo(loginFailureDelay) < 0) {
      throw new IllegalArgumentException("auth.login-failure-max-delay must be at least auth.login-failure-delay");
    }
    if (maxConcurrentLogins < 1 || maxConcurrentLogins > 1024) {
      throw new IllegalArgumentException("auth.max-concurrent-logins must be 1..1024, was " + maxConcurrentLogins);
    }
    if (maxQueuedLogins < 0 || maxQueuedLogins > 100_000) {
      throw new IllegalArgumentException("auth.max-queued-logins must be 0..100000, was " + maxQueuedLogins);
    }
    if (maxConcurrentPerUser < 1 || maxConcurrentPerUser > 100_000) {
      throw new IllegalArgumentException("query.max-concurrent-per-user must be 1..100000, was "
          + maxConcurrentPerUser);
    }
    if (writeStallTimeout == null || writeStallTimeout.isNegative() || writeStallTimeout.isZero()) {
      throw new IllegalArgumentException("query.write-stall-timeout must be a positive duration (e.g. 2m)");
    }
    if (spoolMaxBytes < 1 << 20 || spoolMaxBytesPerUser < 1 << 20) {
      throw new IllegalArgumentException("results.max-bytes and results.max-bytes-per-user must be at least 1MB");
    }
  }

  public static GuardSettings defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static GuardSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k) && value != null && !value.isBlank()) {
        v.put(k, value);
      }
    });
    return new GuardSettings(size("server.max-header-list-size", v), size("server.max-inbound-message-size", v),
        integer("auth.login-free-failures", v),
        ConfigValues.duration("auth.login-failure-delay", v.get("auth.login-failure-delay")),
        ConfigValues.duration("auth.login-failure-max-delay", v.get("auth.login-failure-max-delay")),
        integer("auth.max-concurrent-logins", v), integer("auth.max-queued-logins", v),
        integer("query.max-concurrent-per-user", v),
        ConfigValues.duration("query.write-stall-timeout", v.get("query.write-stall-timeout")),
        ConfigValues.bytes("results.max-bytes", v.get("results.max-bytes")),
        ConfigValues.bytes("results.max-bytes-per-user", v.get("results.max-bytes-per-user")));
  }

  private static int size(String key, Map<String, String> values) {
    long bytes = ConfigValues.bytes(key, values.get(key));
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(key + " = '" + values.get(key) + "' is larger than 2GB");
    }
    return (int) bytes;
  }

  private static int integer(String key, Map<String, String> values) {
    try {
      return Integer.parseInt(values.get(key).strip());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " = '" + values.get(key) + "' is not an integer");
    }
  }
}
