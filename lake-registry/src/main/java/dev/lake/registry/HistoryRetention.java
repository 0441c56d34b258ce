package dev.lake.registry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The retention rule of docs/design.md invariant 9, computed from the registry's history: keep every version that was
 * current at any moment within the window, and always the registered one. A history item expires only once its
 * successor was registered before the window start; the last item of an incarnation expires only once the
 * incarnation ended (was dropped) before the window start.
 */
public final class HistoryRetention {
  private HistoryRetention() {}

  /**
   * The history items that may be deleted.
   *
   * @param history the items of one incarnation (any order)
   * @param windowStart now minus the retention window
   * @param endedAt when the incarnation stopped being current (its tombstone's {@code droppedAt}); empty while
   *     it is registered
   */
  public static List<VersionRecord> expired(
      List<VersionRecord> history, Instant windowStart, Optional<Instant> endedAt) {
    Objects.requireNonNull(windowStart, "windowStart");
    Objects.requireNonNull(endedAt, "endedAt");
    List<VersionRecord> sorted = sorted(history);
    List<VersionRecord> expired = new ArrayList<>();
    for (int i = 0; i < sorted.size(); i++) {
      Optional<Instant> supersededAt =
          i + 1 < sorted.size() ? Optional.of(sorted.get(i + 1).registeredAt()) : endedAt;
      if (supersededAt.isPresent() && supersededAt.get().isBefore(windowStart)) {
        expired.add(sorted.get(i));
      }
    }
    return expired;
  }

  /**
   * The lowest version that must stay readable (the bound cleanup is given), or empty when nothing of the
   * incarnation is retained.
   */
  public static Optional<Long> oldestRetainedVersion(
      List<VersionRecord> history, Instant windowStart, Optional<Instant> endedAt) {
    List<VersionRecord> expired = expired(history, windowStart, endedAt);
    return sorted(history).stream()
        .filter(v -> !expired.contains(v))
        .map(VersionRecord::version)
        .findFirst();
  }

  private static List<VersionRecord> sorted(List<VersionRecord> history) {
    Objects.requireNonNull(history, "history");
    List<VersionRecord> sorted = new ArrayList<>(history);
    sorted.sort(Comparator.comparingLong(VersionRecord::version));
    return sorted;
  }
}
