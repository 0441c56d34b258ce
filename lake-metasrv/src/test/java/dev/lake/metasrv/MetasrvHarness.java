package dev.lake.metasrv;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The write path of one leader with real components: a RocksDB MetaStore, the Lance engine on a temp directory, the
 * single-node lease, a {@link WriteCoordinator} and {@link Maintenance} sharing one set of table locks. Tables have
 * one BIGINT column {@code v}.
 */
final class MetasrvHarness implements AutoCloseable {
  static final Schema SCHEMA = new Schema(List.of(Field.nullable("v", new ArrowType.Int(64, true))));

  final BufferAllocator allocator = new RootAllocator();
  final MetaStore store;
  final LanceTableEngine engine;
  final WriteCoordinator writes;
  final Maintenance maintenance;
  final SingleNodeLeadership leadership;
  final TableLocations locations;
  /** What the write coordinator and maintenance told their registration listener, in order. */
  final List<TableRegistration> told = new java.util.concurrent.CopyOnWriteArrayList<>();

  MetasrvHarness(Path dir, Clock clock, MaintenanceSettings settings, WriteInterceptor interceptor) {
    this.store = RocksDbMetaStore.open(dir.resolve("registry"));
    this.engine = new LanceTableEngine(allocator, Map.of());
    this.leadership = SingleNodeLeadership.takeLease(store, "node-test", "127.0.0.1:0");
    this.locations = new TableLocations(dir.resolve("tables").toString());
    TableLocks locks = new TableLocks(30_000);
    dev.lake.registry.RegistrationListener listener = new dev.lake.registry.RegistrationListener() {
      @Override
      public void registered(TableRegistration registration) {
        told.add(registration);
      }

      @Override
      public void dropped(String name, String generation) {
        told.add(null);
      }
    };
    this.writes = new WriteCoordinator(store, engine, leadership, locks, locations, allocator, clock, interceptor,
        listener);
    this.maintenance = new Maintenance(store, engine, leadership, locks, locations, clock, settings,
        interceptor, listener);
  }

  WriteResult create(String table, List<Long> values) {
    return writes.ingest(new IngestRequest(table, IngestRequest.IfMissing.CREATE, IngestRequest.IfExists.FAIL,
        Optional.empty()), reader(values));
  }

  WriteResult append(String table, List<Long> values) {
    return writes.ingest(new IngestRequest(table, IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.APPEND,
        Optional.empty()), reader(values));
  }

  WriteResult replace(String table, List<Long> values) {
    return writes.ingest(new IngestRequest(table, IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.REPLACE,
        Optional.empty()), reader(values));
  }

  TableRegistration registration(String table) {
    return store.get(table).orElseThrow();
  }

  /** The values of the registered version of {@code table} (what a query sees). */
  List<Long> values(String table) {
    TableRegistration r = registration(table);
    return valuesAt(r.location(), r.version());
  }

  /** The values stored in exactly {@code version} at {@code location}. */
  List<Long> valuesAt(String location, long version) {
    List<Long> out = new ArrayList<>();
    try (TableSnapshot snapshot = engine.open(location, version, allocator);
        ArrowReader reader = snapshot.scan(List.of("v"), Optional.empty(), Optional.empty(), 1024)) {
      while (reader.loadNextBatch()) {
        BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector(0);
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** One Arrow stream holding {@code values} in one batch. */
  ArrowReader reader(List<Long> values) {
    return reader(allocator, values);
  }

  /** One Arrow stream holding {@code values} in one batch, in {@code allocator}. */
  static ArrowReader reader(BufferAllocator allocator, List<Long> values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
      root.allocateNew();
      BigIntVector v = (BigIntVector) root.getVector(0);
      for (int i = 0; i < values.size(); i++) {
        v.setSafe(i, values.get(i));
      }
      root.setRowCount(values.size());
      writer.start();
      writer.writeBatch();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ArrowStreamReader(new ByteArrayInputStream(out.toByteArray()), allocator);
  }

  static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  @Override
  public void close() {
    engine.close();
    store.close();
    allocator.close();
  }
}
