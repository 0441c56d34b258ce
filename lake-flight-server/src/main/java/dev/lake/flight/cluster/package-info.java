/**
 * The cluster: a node's lease settings and advertised addresses ({@link dev.lake.flight.cluster.ClusterNodeSettings}),
 * the wiring of its leadership and internal endpoint ({@link dev.lake.flight.cluster.ClusterNode}), the routing of
 * writes on a follower to the leader ({@link dev.lake.flight.cluster.Forwarding}, {@link
 * dev.lake.flight.cluster.LeaderClient}), and the leader's internal Flight endpoint that runs them ({@link
 * dev.lake.flight.cluster.InternalEndpoint}), authenticated with the cluster secret and carrying the caller's
 * identity ({@link dev.lake.flight.cluster.InternalTokens}).
 */
package dev.lake.flight.cluster;
