package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.registry.LeaseFence;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A real RocksDB registry (this process took the lease at start-up) and a real Lance engine under one directory.
 * Tables are written like the leader writes them: data staged and committed in Lance, then registered through the
 * MetaStore with the lease fence. The catalog under test reads through {@link #store}, a counting wrapper; writes go
 * to the registry directly, behind the catalog's back.
 */
final class RegistryLake implements AutoCloseable {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  final Path dir;
  final RocksDbMetaStore registry;
  final CountingMetaStore store;
  final LeaseFence fence;
  final BufferAllocator allocator = new RootAllocator();
  final LanceTableEngine engine;

  RegistryLake(Path dir) {
    this.dir = dir;
    this.registry = RocksDbMetaStore.open(dir.resolve("registry"));
    this.fence = registry.takeLeaseAtStartup("node-1", "localhost:1", T0.plusSeconds(86_400)).fence();
    this.store = new CountingMetaStore(registry);
    this.engine = new LanceTableEngine(allocator, Map.of());
  }

  TableRegistration create(String name, Schema schema, List<List<Object>> rows, Instant at) {
    String generation = UUID.randomUUID().toString();
    String location = dir.resolve("data").resolve(name).resolve(generation) + "/";
    StagedData staged = engine.stage(location, Rows.reader(allocator, schema, rows, 1_000));
    long version = engine.create(location, staged);
    TableRegistration registration = new TableRegistration(name, generation, location, version, schema.toJson(),
        fence.term(), at, at);
    registry.create(fence, registration, Optional.empty());
    return registration;
  }

  TableRegistration append(TableRegistration current, Schema schema, List<List<Object>> rows, Instant at) {
    long version = appendUnregistered(current, schema, rows);
    TableRegistration next = current.withVersion(version, current.schema(), fence.term(), at);
    registry.commit(fence, current, next, Optional.empty());
    return next;
  }

  /** A Lance commit the registry never hears of (like a write whose registry write failed). */
  long appendUnregistered(TableRegistration current, Schema schema, List<List<Object>> rows) {
    StagedData staged = engine.stage(current.location(), Rows.reader(allocator, schema, rows, 1_000));
    return engine.commit(current.location(), engine.latestVersion(current.location()),
        new TableChange.Append(staged));
  }

  /** Replaces the content (and possibly the schema) in the same generation. */
  TableRegistration overwrite(TableRegistration current, Schema schema, List<List<Object>> rows, Instant at) {
    StagedData staged = engine.stage(current.location(), Rows.reader(allocator, schema, rows, 1_000));
    long version = engine.commit(current.location(), current.version(), new TableChange.Overwrite(staged));
    TableRegistration next = current.withVersion(version, schema.toJson(), fence.term(), at);
    registry.commit(fence, current, next, Optional.empty());
    return next;
  }

  void drop(TableRegistration current, Instant at) {
    registry.drop(fence, current, new Tombstone(current.name(), current.generation(), current.location(), at));
  }

  void assertNothingOpen() {
    assertThat(engine.openHandles()).as("open Lance handles").isZero();
    assertThat(allocator.getAllocatedMemory()).as("Arrow memory left allocated").isZero();
  }

  @Override
  public void close() {
    engine.close();
    allocator.close();
    registry.close();
  }
}
