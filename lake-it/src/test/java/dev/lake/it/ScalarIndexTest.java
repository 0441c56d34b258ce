package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.it.support.AdminClient;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import dev.lake.metasrv.IngestRequest;
import dev.lake.metasrv.WriteInterceptor;
import dev.lake.registry.TableRegistration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22's scalar indexes end to end: {@code lake.create_index} builds BTREE and BITMAP indexes on the leader as
 * registered versions under the commit rule; queries use them (EXPLAIN says so) and answer exactly what a full scan
 * answers; an older registered version reads without them; an index commit that a concurrent append overtook is
 * never registered as it was, and no row is lost.
 */
class ScalarIndexTest {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("cat", new ArrowType.Utf8()),
      Field.nullable("v", new ArrowType.Int(64, true))));
  private static final int ROWS = 20_000;

  @TempDir
  Path dataDir;

  /** id of row v: v itself, NULL for every 97th row. */
  private static Long id(long v) {
    return v % 97 == 0 ? null : v;
  }

  /** cat of row v: one of six values, NULL for every 53rd row. */
  private static String cat(long v) {
    return v % 53 == 0 ? null : "c" + (v % 6);
  }

  @Test
  void scalarIndexIsCommittedRegisteredAndUsed() throws Exception {
    AtomicBoolean armed = new AtomicBoolean();
    AtomicReference<LakeTestServer> serverRef = new AtomicReference<>();
    AtomicReference<TableRegistration> overtaking = new AtomicReference<>();
    WriteInterceptor overtake = new WriteInterceptor() {
      @Override
      public void beforeLanceCommit(String table, String location, long readVersion) {
        if (table.equals("t") && armed.getAndSet(false)) {
          // a concurrent append is registered after the index's read version was fixed, before its commit
          try (BufferAllocator a = serverRef.get().server().allocator().newChildAllocator("overtaking", 0,
              Long.MAX_VALUE); ArrowReader rows = reader(a, ROWS, ROWS + 500)) {
            overtaking.set(serverRef.get().server().writes().ingest(new IngestRequest("t",
                IngestRequest.IfMissing.FAIL, IngestRequest.IfExists.APPEND, Optional.empty()), rows)
                .registration());
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      }
    };
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.writeInterceptor(overtake));
        FlightTestClient client = server.client()) {
      serverRef.set(server);
      ingest(client, 0, 12_000, FlightTestClient.create());
      ingest(client, 12_000, ROWS, FlightTestClient.append());
      long before = registered(server).version();

      // BTREE on the key column, through the admin action
      JsonNode btree = createIndex(client, "{\"table\": \"T\", \"column\": \"ID\", \"type\": \"btree\"}");
      assertThat(btree.path("index").path("name").asText()).isEqualTo("id_idx");
      assertThat(btree.path("index").path("type").asText()).isEqualTo("BTREE");
      assertThat(btree.path("version").asLong()).isGreaterThan(before)
          .isEqualTo(registered(server).version());
      long withBtree = btree.path("version").asLong();
      // BITMAP on the low-cardinality column, named
      JsonNode bitmap = createIndex(client,
          "{\"table\": \"t\", \"column\": \"cat\", \"type\": \"BITMAP\", \"name\": \"cat_bitmap\"}");
      assertThat(bitmap.path("index").path("type").asText()).isEqualTo("BITMAP");
      assertThat(bitmap.path("version").asLong()).isGreaterThan(withBtree).isEqualTo(registered(server).version());

      JsonNode described = AdminClient.action(client, "lake.describe_table", "{\"table\": \"t\"}");
      assertThat(described.path("indexes").findValuesAsText("name")).containsExactly("cat_bitmap", "id_idx");
      assertThat(described.path("indexes").get(0).path("columns").get(0).asText()).isEqualTo("cat");
      assertThat(described.path("indexes").get(1).path("built_at_version").asLong()).isEqualTo(before);

      // EXPLAIN shows the index's use; an older registered version has none
      assertThat(explain(client, "SELECT * FROM t WHERE id = 5")).contains("index=[id_idx BTREE]");
      assertThat(explain(client, "SELECT v FROM t WHERE cat = 'c3' LIMIT 10")).contains("cat_bitmap BITMAP");
      assertThat(explain(client, "SELECT * FROM \"t@v" + before + "\" WHERE id = 5")).doesNotContain("index=");
      assertThat(values(client, "SELECT v FROM \"t@v" + before + "\" WHERE id IN (5, 97, 19999)"))
          .containsExactly(5L, 19999L);

      // answers equal a full scan's (computed here) on random predicates, NULLs present
      Random random = new Random(22);
      for (int i = 0; i < 40; i++) {
        long a = random.nextInt(ROWS + 100) - 50;
        long b = a + random.nextInt(300);
        long c = random.nextInt(ROWS);
        String k = "c" + random.nextInt(7);
        List<Object[]> cases = List.of(
            new Object[] {"id = " + a, (LongPredicate) v -> id(v) != null && id(v) == a},
            new Object[] {"id >= " + a + " AND id < " + b, (LongPredicate) v -> id(v) != null && id(v) >= a
                && id(v) < b},
            new Object[] {"id IN (" + a + ", " + c + ", 97)", (LongPredicate) v -> id(v) != null
                && (id(v) == a || id(v) == c)},
            new Object[] {"id BETWEEN " + a + " AND " + b + " AND cat = '" + k + "'", (LongPredicate) v ->
                id(v) != null && id(v) >= a && id(v) <= b && k.equals(cat(v))},
            new Object[] {"cat = '" + k + "' AND v < " + c, (LongPredicate) v -> k.equals(cat(v)) && v < c},
            new Object[] {"cat IN ('c1', '" + k + "') AND v >= " + c, (LongPredicate) v -> cat(v) != null
                && (cat(v).equals("c1") || cat(v).equals(k)) && v >= c},
            new Object[] {"id IS NULL AND v < " + c, (LongPredicate) v -> id(v) == null && v < c});
        for (Object[] p : cases) {
          String where = (String) p[0];
          LongPredicate expected = (LongPredicate) p[1];
          assertThat(values(client, "SELECT v FROM t WHERE " + where + " ORDER BY v"))
              .as(where).containsExactlyElementsOf(LongStream.range(0, ROWS).filter(expected).boxed().toList());
        }
      }
      assertThat(values(client, "SELECT v FROM \"t@v" + before + "\" WHERE cat = 'c2' ORDER BY v"))
          .containsExactlyElementsOf(LongStream.range(0, ROWS).filter(v -> "c2".equals(cat(v))).boxed().toList());

      // a concurrent append registered between the index's read version and its commit: the overtaken index
      // commit is not registered as it was; the build is retried on the new registration, nothing is lost
      armed.set(true);
      JsonNode stale = createIndex(client, "{\"table\": \"t\", \"column\": \"v\", \"type\": \"BTREE\"}");
      assertThat(armed.get()).as("the append overtook the index build").isFalse();
      assertThat(overtaking.get()).isNotNull();
      TableRegistration now = registered(server);
      assertThat(stale.path("version").asLong()).isEqualTo(now.version()).isGreaterThan(overtaking.get().version());
      assertThat(client.count("t")).isEqualTo(ROWS + 500);
      assertThat(values(client, "SELECT v FROM t WHERE v >= " + (ROWS - 2) + " AND v < " + (ROWS + 2)
          + " ORDER BY v")).containsExactly((long) ROWS - 2, (long) ROWS - 1, (long) ROWS, (long) ROWS + 1);
      assertThat(explain(client, "SELECT * FROM t WHERE v = 7")).contains("v_idx BTREE");
      assertThat(AdminClient.action(client, "lake.describe_table", "{\"table\": \"t\"}").path("indexes")
          .findValuesAsText("name")).containsExactly("cat_bitmap", "id_idx", "v_idx");

      // bad requests: clear codes, nothing built
      long version = registered(server).version();
      assertThat(code(client, "{\"table\": \"nope\", \"column\": \"id\", \"type\": \"BTREE\"}")).isEqualTo(
          "NOT_FOUND");
      assertThat(code(client, "{\"table\": \"t\", \"column\": \"nope\", \"type\": \"BTREE\"}")).isEqualTo(
          "INVALID_ARGUMENT");
      assertThat(code(client, "{\"table\": \"t\", \"column\": \"id\", \"type\": \"HASH\"}")).isEqualTo(
          "INVALID_ARGUMENT");
      assertThat(code(client, "{\"table\": \"t\", \"column\": \"id\"}")).isEqualTo("INVALID_ARGUMENT");
      assertThat(code(client, "{\"table\": \"t\", \"column\": \"id\", \"type\": \"BTREE\", \"name\": \"1 x\"}"))
          .isEqualTo("INVALID_ARGUMENT");
      assertThat(code(client, "{\"table\": \"t\", \"column\": \"id\", \"type\": \"BTREE\", \"extra\": 1}"))
          .isEqualTo("INVALID_ARGUMENT");
      assertThat(code(client, "{\"table\": \"t\", \"column\": \"id\", \"type\": \"BTREE\"}")).isEqualTo(
          "ALREADY_EXISTS");
      assertThat(code(client, "[1]")).isEqualTo("INVALID_ARGUMENT");
      assertThat(registered(server).version()).isEqualTo(version);
    }
  }

  private static String code(FlightTestClient client, String body) {
    Throwable failed = catchThrowable(() -> createIndex(client, body));
    assertThat(failed).as(body).isNotNull();
    assertThat(failed.getMessage()).doesNotContain(System.getProperty("java.io.tmpdir")).doesNotContain("dev.lake");
    return Status.code(failed);
  }

  private static JsonNode createIndex(FlightTestClient client, String body) {
    return AdminClient.action(client, "lake.create_index", body);
  }

  private static TableRegistration registered(LakeTestServer server) {
    return server.server().metaStore().get("t").orElseThrow();
  }

  private static String explain(FlightTestClient client, String sql) throws Exception {
    return client.rows("EXPLAIN PLAN FOR " + sql).stream().map(r -> String.valueOf(r.get(0)))
        .collect(Collectors.joining("\n"));
  }

  private static List<Long> values(FlightTestClient client, String sql) throws Exception {
    return client.rows(sql).stream().map(r -> ((Number) r.get(0)).longValue()).toList();
  }

  private static void ingest(FlightTestClient client, long from, long to,
      org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions options) {
    try (VectorSchemaRoot root = batch(client.allocator(), from, to)) {
      client.ingest("t", root, options);
    }
  }

  private static VectorSchemaRoot batch(BufferAllocator allocator, long from, long to) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    int n = (int) (to - from);
    BigIntVector id = (BigIntVector) root.getVector(0);
    VarCharVector cat = (VarCharVector) root.getVector(1);
    BigIntVector v = (BigIntVector) root.getVector(2);
    root.allocateNew();
    for (int i = 0; i < n; i++) {
      long row = from + i;
      if (id(row) == null) {
        id.setNull(i);
      } else {
        id.setSafe(i, id(row));
      }
      if (cat(row) == null) {
        cat.setNull(i);
      } else {
        cat.setSafe(i, cat(row).getBytes(StandardCharsets.UTF_8));
      }
      v.setSafe(i, row);
    }
    root.setRowCount(n);
    return root;
  }

  /** One batch of rows [from, to) as a reader (what the in-process append consumes). */
  private static ArrowReader reader(BufferAllocator allocator, long from, long to) {
    return new ArrowReader(allocator) {
      private boolean done;

      @Override
      public boolean loadNextBatch() throws java.io.IOException {
        if (done) {
          return false;
        }
        done = true;
        try (VectorSchemaRoot source = batch(allocator, from, to);
            ArrowRecordBatch unloaded = new VectorUnloader(source).getRecordBatch()) {
          new org.apache.arrow.vector.VectorLoader(getVectorSchemaRoot()).load(unloaded);
        }
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected Schema readSchema() {
        return SCHEMA;
      }
    };
  }
}
