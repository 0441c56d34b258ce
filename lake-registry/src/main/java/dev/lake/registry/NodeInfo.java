package dev.lake.registry;

import java.time.Instant;
import java.util.Objects;

/** A node's heartbeat item, for {@code lake.status}. */
public record NodeInfo(String nodeId, String flightAddress, String internalAddress, Instant lastSeen) {
  public NodeInfo {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(flightAddress, "flightAddress");
    Objects.requireNonNull(internalAddress, "internalAddress");
    Objects.requireNonNull(lastSeen, "lastSeen");
  }
}
