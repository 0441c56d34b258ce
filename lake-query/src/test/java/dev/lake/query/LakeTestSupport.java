package dev.lake.query;

import dev.lake.query.model.TablePin;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.registry.TableRegistration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@link LanceTableEngine} on a temporary directory, an in-memory catalog and a {@link QueryService}; tables
 * are created once per test class. After every test no Lance handle and no Arrow buffer may be left open.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LakeTestSupport {
  Path dataRoot;

  BufferAllocator allocator;
  LanceTableEngine engine;
  InMemoryCatalog catalog;
  QueryService service;

  @BeforeAll
  void startLake(@TempDir Path dataRoot) {
    this.dataRoot = dataRoot;
    allocator = new RootAllocator();
    engine = new LanceTableEngine(allocator, Map.of());
    catalog = new InMemoryCatalog();
    service = new QueryService(catalog, engine, options());
    createTables();
  }

  /** The options of {@link #service}. */
  QueryOptions options() {
    return QueryOptions.defaults();
  }

  /** Creates the class's tables. */
  void createTables() {}

  @AfterEach
  void nothingLeftOpen() {
    assertThat(engine.openHandles()).as("open Lance handles after the test").isZero();
    assertThat(allocator.getAllocatedMemory()).as("Arrow memory left allocated after the test").isZero();
  }

  @AfterAll
  void stopLake() {
    engine.close();
    allocator.close();
  }

  TableRegistration createTable(String name, Schema schema, List<List<Object>> rows) {
    String location = dataRoot.resolve(name).resolve(UUID.randomUUID().toString()) + "/";
    StagedData staged = engine.stage(location, Rows.reader(allocator, schema, rows, 1_000));
    long version = engine.create(location, staged);
    Instant now = Instant.now();
    TableRegistration registration = new TableRegistration(name, UUID.randomUUID().toString(), location, version,
        schema.toJson(), 1, now, now);
    catalog.put(registration);
    return registration;
  }

  TableRegistration appendRows(TableRegistration registration, Schema schema, List<List<Object>> rows) {
    StagedData staged = engine.stage(registration.location(), Rows.reader(allocator, schema, rows, 1_000));
    long version = engine.commit(registration.location(), registration.version(), new TableChange.Append(staged));
    TableRegistration next = registration.withVersion(version, registration.schema(), 1, Instant.now());
    catalog.put(next);
    return next;
  }

  /** The plan {@code target} explains for {@code sql}, one line per row. */
  String explain(QueryService target, String sql) {
    String explain = "EXPLAIN PLAN FOR " + sql;
    Result plan = collect(target.execute(explain, target.prepare(explain).pins(), List.of(), allocator));
    return String.join("\n", plan.column(0).stream().map(String::valueOf).toList());
  }

  /** {@code rows} in the order of their values' text: answers compared whatever order they came in. */
  static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(java.util.Comparator.comparing(row -> row.stream().map(String::valueOf).toList().toString()));
    return copy;
  }

  /** Registers the latest version of {@code table}'s dataset (after a change made with Lance directly). */
  TableRegistration register(TableRegistration table) {
    TableRegistration next = table.withVersion(engine.latestVersion(table.location()), table.schema(), 1,
        Instant.now());
    catalog.put(next);
    return next;
  }

  /** Prepares and executes {@code sql} at the current registrations; checks both schemas agree. */
  Result query(String sql, Object... parameters) {
    PreparedQuery prepared = service.prepare(sql);
    Result result = execute(sql, prepared.pins(), Arrays.asList(parameters));
    assertThat(result.schema()).as("executed schema equals prepared schema").isEqualTo(prepared.resultSchema());
    return result;
  }

  Result execute(String sql, Map<String, TablePin> pins, List<Object> parameters) {
    return collect(service.execute(sql, pins, parameters, allocator));
  }

  static Result collect(ArrowReader reader) {
    try (reader) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      List<List<Object>> rows = new ArrayList<>();
      List<Integer> batchSizes = new ArrayList<>();
      while (reader.loadNextBatch()) {
        batchSizes.add(root.getRowCount());
        for (int i = 0; i < root.getRowCount(); i++) {
          List<Object> row = new ArrayList<>();
          for (FieldVector vector : root.getFieldVectors()) {
            row.add(value(vector, i));
          }
          rows.add(row);
        }
      }
      return new Result(root.getSchema(), rows, batchSizes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Object value(FieldVector vector, int index) {
    if (vector.isNull(index)) {
      return null;
    }
    if (vector instanceof DateDayVector) {
      return LocalDate.ofEpochDay(((DateDayVector) vector).get(index));
    }
    Object value = vector.getObject(index);
    return value instanceof Text ? value.toString() : value;
  }

  /** A collected result: its schema, its rows (values as Arrow's getObject gives them) and its batch sizes. */
  record Result(Schema schema, List<List<Object>> rows, List<Integer> batchSizes) {
    List<Object> column(int index) {
      List<Object> values = new ArrayList<>();
      rows.forEach(row -> values.add(row.get(index)));
      return values;
    }
  }
}
