package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A real engine over Lance on a temporary directory; every test must leave no handle and no buffer behind. */
abstract class EngineTestSupport {
  static final Schema ID_NAME = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", new ArrowType.Utf8())));

  @TempDir
  Path dataRoot;

  BufferAllocator allocator;
  LanceTableEngine engine;

  @BeforeEach
  void startEngine() {
    allocator = new RootAllocator();
    engine = new LanceTableEngine(allocator, Map.of());
  }

  @AfterEach
  void stopEngine() {
    long handles = engine.openHandles();
    engine.close();
    long leaked = allocator.getAllocatedMemory();
    allocator.close();
    assertThat(handles).as("open Lance handles after the test").isZero();
    assertThat(leaked).as("Arrow memory left allocated after the test").isZero();
  }

  /** A fresh {@code <data-root>/<name>/<generation>/} location, with a trailing slash as the metasrv writes it. */
  String newLocation(String name) {
    return dataRoot.resolve(name).resolve(UUID.randomUUID().toString()) + "/";
  }

  RowsReader idNameRows(long... ids) {
    List<List<Object>> rows = new ArrayList<>();
    for (long id : ids) {
      rows.add(Rows.row(id, "row-" + id));
    }
    return new RowsReader(allocator, ID_NAME, rows, 2);
  }

  StagedData stageIds(String location, long... ids) {
    return engine.stage(location, idNameRows(ids));
  }

  long createWithIds(String location, long... ids) {
    return engine.create(location, stageIds(location, ids));
  }

  long appendIds(String location, long readVersion, long... ids) {
    return engine.commit(location, readVersion, new TableChange.Append(stageIds(location, ids)));
  }

  /** The ids stored in {@code version}, ascending. */
  List<Long> idsAt(String location, long version) {
    try (TableSnapshot snapshot = engine.open(location, version, allocator)) {
      return Rows.drain(snapshot.scan(List.of("id"), Optional.empty(), Optional.empty(), 1024)).stream()
          .map(row -> (Long) row.get(0))
          .sorted(Comparator.naturalOrder())
          .toList();
    }
  }
}
