package dev.lake.query;

import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** A catalog in memory for tests (not a registry backend); can be switched to fail like an unreachable backend. */
final class InMemoryCatalog implements Catalog {
  private final Map<String, TableRegistration> tables = new ConcurrentSkipListMap<>();
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicInteger lookups = new AtomicInteger();
  private final Map<String, List<VersionRecord>> histories = new ConcurrentHashMap<>();

  void put(TableRegistration registration) {
    tables.put(registration.name(), registration);
    histories.computeIfAbsent(registration.name() + "/" + registration.generation(), k -> new CopyOnWriteArrayList<>())
        .add(new VersionRecord(registration.name(), registration.generation(), registration.version(),
            registration.updatedAt()));
  }

  void setDown(boolean unavailable) {
    down.set(unavailable);
  }

  int lookups() {
    return lookups.get();
  }

  @Override
  public Optional<TableRegistration> table(String name) {
    lookups.incrementAndGet();
    if (down.get()) {
      throw new RegistryUnavailableException("test registry is down", null);
    }
    return Optional.ofNullable(tables.get(TableNames.normalize(name)));
  }

  @Override
  public List<TableRegistration> tables() {
    return new ArrayList<>(tables.values());
  }

  @Override
  public List<VersionRecord> history(String name, String generation) {
    if (down.get()) {
      throw new RegistryUnavailableException("test registry is down", null);
    }
    return List.copyOf(histories.getOrDefault(TableNames.normalize(name) + "/" + generation, List.of()));
  }
}
