package dev.lake.metasrv;

import dev.lake.registry.LeaseFence;

/**
 * The write gate. {@link #enter()} returns the fence to put on a registry mutation, captured now, or throws
 * {@link NotLeaderException} when this node may not write (not the holder, or past its local deadline).
 * Implementations: {@link SingleNodeLeadership} (RocksDB, one process, always the leader) and
 * {@link ClusterLeadership} (DynamoDB: lease campaigns among the nodes, gate on the monotonic clock).
 */
public interface Leadership {
  LeaseFence enter();

  /** True while the gate is open (for status and routing; a write must still call {@link #enter()}). */
  boolean isLeader();
}
