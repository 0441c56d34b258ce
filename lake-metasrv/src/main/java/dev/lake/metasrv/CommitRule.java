package dev.lake.metasrv;

import dev.lake.engine.TableEngine;
import dev.lake.registry.TableRegistration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first half of docs/design.md's commit rule (invariant 2), shared by every path that commits data under the table
 * lock: find the version to build on. If Lance holds data-changing commits after the registered version (a commit
 * whose registry write failed, a crash between commit and registry write, a deposed leader, a foreign writer),
 * commit a Restore of the registered version and build on that; otherwise build on Lance's latest (which may hold
 * data-neutral versions after the registered one). The engine checks what lies between after the commit.
 *
 * <p>The repair is a Lance commit like any other: it passes the write gate immediately before it, so a node that is
 * not the leader never repairs storage (it may have read a registration that the new leader has since moved on
 * from, and its Restore would roll the table back under the live leader; docs/architecture.md, "Fencing storage").
 */
final class CommitRule {
  private static final Logger LOG = LoggerFactory.getLogger(CommitRule.class);
  private final TableEngine engine;
  private final Leadership leadership;

  CommitRule(TableEngine engine, Leadership leadership) {
    this.engine = engine;
    this.leadership = leadership;
  }

  /**
   * Call under the table lock. Throws {@link NotLeaderException} (nothing committed) when a repair is needed and
   * this node may not write.
   */
  long readVersion(TableRegistration registration) {
    String location = registration.location();
    // Latest first, then the check: the check then covers every version up to the one returned. (The other order
    // lets a commit that lands between the two — a deposed leader's, which Lance cannot refuse — become part of the
    // read version unseen; this way it lands after the read version, and the engine's check after the commit finds
    // it.)
    long latest = engine.latestVersion(location);
    List<Long> unregistered = engine.dataChangingVersionsAfter(location, registration.version());
    if (unregistered.isEmpty()) {
      return latest;
    }
    leadership.enter();
    long restored = engine.restore(location, registration.version());
    LOG.warn("restored unregistered data commits table={} registered={} unregistered={} restoredAs={}",
        registration.name(), registration.version(), unregistered, restored);
    return restored;
  }
}
