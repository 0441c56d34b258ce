package dev.lake.query;

import dev.lake.registry.MetaStore;
import dev.lake.registry.Page;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link Catalog} straight over a {@link MetaStore}: one point read per table look-up, {@link #tables()} pages
 * through the store. A small in-memory overlay holds what this node's writer acknowledged ({@link #accept}) and
 * dropped ({@link #dropped}) so the node reads its own writes even from a lagging store: of two registrations the
 * newer incarnation (later {@code createdAt}) wins, then the higher version. Overlay entries leave once the store
 * has caught up. No caching: the server's catalog is {@link CachingCatalog}; this one serves tools and tests that
 * want every look-up to reach the store. Backend errors propagate.
 */
public final class RegistryCatalog implements Catalog {
  static final int DEFAULT_PAGE_SIZE = 500;
  private static final Comparator<TableRegistration> NEWER =
      Comparator.comparing(TableRegistration::createdAt).thenComparingLong(TableRegistration::version);

  private final MetaStore store;
  private final int pageSize;
  private final Map<String, TableRegistration> accepted = new ConcurrentHashMap<>();
  private final Map<String, String> droppedGenerations = new ConcurrentHashMap<>();

  public RegistryCatalog(MetaStore store) {
    this(store, DEFAULT_PAGE_SIZE);
  }

  RegistryCatalog(MetaStore store, int pageSize) {
    this.store = Objects.requireNonNull(store, "store");
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be positive, was " + pageSize);
    }
    this.pageSize = pageSize;
  }

  @Override
  public Optional<TableRegistration> table(String name) {
    if (!TableNames.isValid(name)) {
      return Optional.empty();
    }
    String key = TableNames.normalize(name);
    return merge(key, store.get(key));
  }

  @Override
  public List<TableRegistration> tables() {
    Map<String, TableRegistration> byName = new TreeMap<>();
    Optional<String> cursor = Optional.empty();
    do {
      Page<TableRegistration> page = store.list(cursor, pageSize);
      for (TableRegistration registration : page.items()) {
        byName.put(registration.name(), registration);
      }
      cursor = page.next();
    } while (cursor.isPresent());
    for (String name : accepted.keySet()) {
      byName.putIfAbsent(name, null);
    }
    List<TableRegistration> result = new ArrayList<>();
    for (Map.Entry<String, TableRegistration> entry : byName.entrySet()) {
      merge(entry.getKey(), Optional.ofNullable(entry.getValue())).ifPresent(result::add);
    }
    return result;
  }

  @Override
  public List<VersionRecord> history(String name, String generation) {
    return store.history(TableNames.normalize(name), generation);
  }

  @Override
  public void accept(TableRegistration acknowledged) {
    accepted.merge(acknowledged.name(), acknowledged, (old, fresh) -> NEWER.compare(fresh, old) >= 0 ? fresh : old);
    droppedGenerations.remove(acknowledged.name(), acknowledged.generation());
  }

  @Override
  public void dropped(String name, String generation) {
    String key = TableNames.normalize(name);
    droppedGenerations.put(key, Objects.requireNonNull(generation, "generation"));
    accepted.computeIfPresent(key, (k, registration) ->
        registration.generation().equals(generation) ? null : registration);
  }

  private Optional<TableRegistration> merge(String name, Optional<TableRegistration> stored) {
    String droppedGeneration = droppedGenerations.get(name);
    Optional<TableRegistration> current = stored;
    if (droppedGeneration != null) {
      if (stored.isPresent() && stored.get().generation().equals(droppedGeneration)) {
        current = Optional.empty();
      } else {
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
}
