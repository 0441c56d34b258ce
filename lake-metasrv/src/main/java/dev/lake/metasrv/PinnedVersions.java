package dev.lake.metasrv;

import dev.lake.registry.MetaStore;
import dev.lake.registry.SnapshotPin;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What live snapshot pins hold (docs/architecture.md, invariant 9): retention keeps a pinned version of the current
 * incarnation (its Lance files and its history item), and garbage collection keeps a dropped generation that a live
 * pin names, until the pin expires. Expired pins are deleted here.
 */
final class PinnedVersions {
  private static final Logger LOG = LoggerFactory.getLogger(PinnedVersions.class);

  private PinnedVersions() {}

  /** The live pins, after deleting the expired ones (a registry that stores no pins has none). */
  static List<SnapshotPin> live(MetaStore store, Instant now) {
    List<SnapshotPin> all;
    try {
      all = store.pins();
    } catch (UnsupportedOperationException e) {
      return List.of();
    }
    for (SnapshotPin p : all) {
      if (!p.liveAt(now)) {
        store.deletePin(p.id());
        LOG.info("snapshot pin expired pin={} expiredAt={}", p.id(), p.expiresAt());
      }
    }
    return all.stream().filter(p -> p.liveAt(now)).toList();
  }

  /** The versions of incarnation {@code generation} of {@code name} that live pins hold. */
  static Set<Long> versions(List<SnapshotPin> live, String name, String generation) {
    Set<Long> out = new TreeSet<>();
    for (SnapshotPin p : live) {
      p.table(name).filter(t -> t.generation().equals(generation)).ifPresent(t -> out.add(t.version()));
    }
    return out;
  }

  /** True when a live pin names that incarnation. */
  static boolean holds(List<SnapshotPin> live, String name, String generation) {
    return !versions(live, name, generation).isEmpty();
  }
}
