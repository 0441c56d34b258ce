package dev.lake.flight.cluster;

import dev.lake.flight.values.ConfigValues;
import dev.lake.metasrv.LeaseSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A node's cluster settings (used with {@code registry.backend: dynamodb}; keys in docs/config.md).
 *
 * @param lease lease duration, safety margin (covers the cluster's maximum clock skew), campaign timeout, renewal
 *     interval
 * @param internalPort the port of the internal Flight endpoint followers forward writes to (0: any free port)
 * @param internalAddress the {@code host:port} other nodes reach that endpoint at (written into the lease); by
 *     default {@code server.host} and the bound internal port
 * @param advertisedAddress the {@code host:port} clients reach this node's Flight SQL endpoint at (shown by
 *     {@code lake.status}); by default {@code server.host} and the bound port
 * @param forwardingDeadline how long a follower's forwarded ingest waits on the leader without progress before it
 *     re-reads the lease and, if the lease moved, follows the new leader; below {@code lease.duration}
 * @param retryBuffer the most bytes of one forwarded ingest a follower holds to send it again to a new leader
 */
public record ClusterNodeSettings(LeaseSettings lease, int internalPort, Optional<String> internalAddress,
    Optional<String> advertisedAddress, java.time.Duration forwardingDeadline, long retryBuffer) {

  /** The configuration keys read here and their defaults (null: none), in the order docs/config.md lists them. */
  public static final Map<String, String> KEYS;

  static {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("server.internal-port", "0");
    keys.put("node.internal-address", null);
    keys.put("node.advertised-address", null);
    keys.put("lease.duration", "10s");
    keys.put("lease.safety-margin", "3s");
    keys.put("lease.campaign-timeout", "2s");
    keys.put("lease.renew-interval", "1s");
    keys.put("forwarding.deadline", null); // lease.safety-margin - lease.renew-interval
    keys.put("forwarding.retry-buffer", "32MB");
    KEYS = Collections.unmodifiableMap(keys);
  }

  public ClusterNodeSettings {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(internalAddress, "internalAddress");
    Objects.requireNonNull(advertisedAddress, "advertisedAddress");
    if (internalPort < 0 || internalPort > 65535) {
      throw new IllegalArgumentException("server.internal-port must be 0..65535, was " + internalPort);
    }
    Objects.requireNonNull(forwardingDeadline, "forwardingDeadline");
    if (forwardingDeadline.isNegative() || forwardingDeadline.isZero()
        || forwardingDeadline.compareTo(lease.duration()) >= 0) {
      throw new IllegalArgumentException("forwarding.deadline (" + forwardingDeadline + ") must be positive and "
          + "shorter than lease.duration (" + lease.duration() + "): a follower must notice a stalled leader before "
          + "its lease could have moved twice");
    }
    if (retryBuffer < 0) {
      throw new IllegalArgumentException("forwarding.retry-buffer must not be negative");
    }
    internalAddress.ifPresent(a -> hostPort("node.internal-address", a));
    advertisedAddress.ifPresent(a -> hostPort("node.advertised-address", a));
  }

  public static ClusterNodeSettings defaults() {
    return fromKeys(Map.of());
  }

  /** Reads {@link #KEYS} from merged configuration values (missing keys take their defaults). */
  public static ClusterNodeSettings fromKeys(Map<String, String> values) {
    Map<String, String> v = new LinkedHashMap<>(KEYS);
    values.forEach((k, value) -> {
      if (KEYS.containsKey(k)) {
        v.put(k, value);
      }
    });
    LeaseSettings lease = new LeaseSettings(
        ConfigValues.duration("lease.duration", v.get("lease.duration")),
        ConfigValues.duration("lease.safety-margin", v.get("lease.safety-margin")),
        ConfigValues.duration("lease.campaign-timeout", v.get("lease.campaign-timeout")),
        ConfigValues.duration("lease.renew-interval", v.get("lease.renew-interval")));
    int port;
    try {
      port = Integer.parseInt(v.get("server.internal-port").strip());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("server.internal-port = '" + v.get("server.internal-port")
          + "' is not an integer");
    }
    return new ClusterNodeSettings(lease, port, text(v, "node.internal-address"), text(v, "node.advertised-address"),
        v.get("forwarding.deadline") == null || v.get("forwarding.deadline").isBlank() ? defaultDeadline(lease)
            : ConfigValues.duration("forwarding.deadline", v.get("forwarding.deadline")),
        ConfigValues.bytes("forwarding.retry-buffer", v.get("forwarding.retry-buffer")));
  }

  /**
   * The default {@code forwarding.deadline}: {@code lease.safety-margin - lease.renew-interval} (half the margin if
   * that is not positive). A paused leader's lease runs out at most {@code lease.duration} after its last renewal, a
   * follower takes it within one renewal interval, and a forward notices within one deadline: a write stalls at most
   * {@code lease.duration + lease.safety-margin} after the pause began.
   */
  static java.time.Duration defaultDeadline(LeaseSettings lease) {
    java.time.Duration d = lease.safetyMargin().minus(lease.renewInterval());
    return d.isNegative() || d.isZero() ? lease.safetyMargin().dividedBy(2) : d;
  }

  private static Optional<String> text(Map<String, String> values, String key) {
    return Optional.ofNullable(values.get(key)).map(String::strip).filter(s -> !s.isEmpty());
  }

  private static void hostPort(String key, String address) {
    int colon = address.lastIndexOf(':');
    boolean ok = colon > 0 && colon < address.length() - 1;
    if (ok) {
      try {
        int p = Integer.parseInt(address.substring(colon + 1));
        ok = p > 0 && p <= 65535;
      } catch (NumberFormatException e) {
        ok = false;
      }
    }
    if (!ok) {
      throw new IllegalArgumentException(key + " = '" + address + "' is not host:port (e.g. 10.0.0.5:32011)");
    }
  }
}
