package dev.lake.query;

import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Read-your-writes: what this node's writer acknowledged ({@link #accept}) and dropped ({@link #dropped}), laid
 * over whatever the registry (or a cache of it) says. Of two registrations of a name the newer wins: the later
 * incarnation ({@code createdAt}), then the higher version; a dropped generation stays hidden while a lagging
 * answer still shows it. Entries leave once an answer from the registry has caught up, so a stale answer can never
 * replace a newer acknowledged registration. Thread-safe.
 */
final class RecentWrites {
  static final Comparator<TableRegistration> NEWER =
      Comparator.comparing(TableRegistration::createdAt).thenComparingLong(TableRegistration::version);

  private final Map<String, TableRegistration> accepted = new ConcurrentHashMap<>();
  private final Map<String, String> droppedGenerations = new ConcurrentHashMap<>();

  void accept(TableRegistration acknowledged) {
    Objects.requireNonNull(acknowledged, "acknowledged");
    accepted.merge(acknowledged.name(), acknowledged, (old, fresh) -> NEWER.compare(fresh, old) >= 0 ? fresh : old);
    droppedGenerations.remove(acknowledged.name(), acknowledged.generation());
  }

  void dropped(String name, String generation) {
    String key = TableNames.normalize(name);
    Objects.requireNonNull(generation, "generation");
    droppedGenerations.put(key, generation);
    accepted.computeIfPresent(key, (k, registration) ->
        registration.generation().equals(generation) ? null : registration);
  }

  /** The newest acknowledged registration of {@code name} not yet seen in the registry. */
  Optional<TableRegistration> accepted(String name) {
    return Optional.ofNullable(accepted.get(name));
  }

  /** Names with an acknowledged registration the registry has not shown yet. */
  Set<String> acceptedNames() {
    return Set.copyOf(accepted.keySet());
  }

  /**
   * What the node should see for {@code name}, given what the registry answered ({@code stored}); forgets what
   * the answer shows the registry has caught up with.
   */
  Optional<TableRegistration> merge(String name, Optional<TableRegistration> stored) {
    Optional<TableRegistration> current = stored;
    String droppedGeneration = droppedGenerations.get(name);
    if (droppedGeneration != null) {
      if (stored.isPresent() && stored.get().generation().equals(droppedGeneration)) {
        current = Optional.empty();
      } else if (stored.isPresent()) {
        droppedGenerations.remove(name, droppedGeneration);
      }
    }
    TableRegistration own = accepted.get(name);
    if (own == null) {
      return current;
    }
    if (current.isPresent() && NEWER.compare(current.get(), own) >= 0) {
      accepted.remove(name, own);
      return current;
    }
    return Optional.of(own);
  }

  /**
   * Forgets what a complete listing of the registry has caught up with: acknowledged registrations it shows at
   * least as new, and dropped generations it no longer shows.
   */
  void caughtUp(Map<String, TableRegistration> listing) {
    accepted.forEach((name, own) -> {
      TableRegistration listed = listing.get(name);
      if (listed != null && NEWER.compare(listed, own) >= 0) {
        accepted.remove(name, own);
      }
    });
    droppedGenerations.forEach((name, generation) -> {
      TableRegistration listed = listing.get(name);
      if (listed == null || !listed.generation().equals(generation)) {
        droppedGenerations.remove(name, generation);
      }
    });
  }
}
