package dev.lake.flight;

import dev.lake.flight.config.LakeConfig;
import dev.lake.flight.storage.DataStorage;
import dev.lake.flight.storage.RegistryBackend;
import java.net.InetAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Checks {@link LakeServer} makes of its configuration before it opens anything (or warns about). */
final class StartupChecks {
  private static final Logger LOG = LoggerFactory.getLogger(LakeServer.class);

  private StartupChecks() {}

  static void warnOnClusterMismatch(LakeConfig config, DataStorage storage) {
    if (config.storage().registry() != RegistryBackend.DYNAMODB) {
      return;
    }
    if (!storage.isS3()) {
      LOG.warn("registry.backend=dynamodb with a local data.root={}: other nodes cannot read these tables; use an "
          + "s3:// data root for a cluster", config.dataRoot());
    }
    if (config.clusterSecret().isEmpty()) {
      LOG.warn("registry.backend=dynamodb without cluster.secret: this node generated its own secret under {}; "
          + "every node of a cluster must share one (set cluster.secret or LAKE_CLUSTER_SECRET)", config.dataDir());
    }
  }

  static void checkBindAllowed(LakeConfig config) {
    if (!config.defaultPasswordInForce()) {
      return;
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(config.host())) {
        if (!a.isLoopbackAddress()) {
          throw new IllegalArgumentException("refusing to listen on " + config.host() + " with the default user "
              + "lake/lake: configure auth.users (hashes from 'bin/lake passwd') or bind 127.0.0.1");
        }
      }
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException("server.host '" + config.host() + "' does not resolve");
    }
  }
}
