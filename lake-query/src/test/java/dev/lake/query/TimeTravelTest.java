package dev.lake.query;

import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.query.exec.PinnedTables;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time travel through the registry's history (docs/design.md "Time travel", invariant 9): by version ({@code "t@v42"})
 * and by instant ({@code FOR SYSTEM_TIME AS OF TIMESTAMP}); only versions once registered and still retained are
 * readable. Real RocksDB registry, real Lance tables, the caching catalog.
 */
class TimeTravelTest {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));
  private static final Instant T0 = RegistryLake.T0; // 2026-01-01 00:00:00 UTC

  @TempDir
  Path dir;

  private RegistryLake lake;
  private final ManualTicker ticker = new ManualTicker();
  private CachingCatalog catalog;
  private QueryService service;

  @BeforeEach
  void open() {
    lake = new RegistryLake(dir);
    catalog = new CachingCatalog(lake.store, CatalogSettings.defaults(), ticker);
    catalog.refresh();
    service = new QueryService(catalog, lake.engine, QueryOptions.defaults());
  }

  @AfterEach
  void close() {
    lake.assertNothingOpen();
    catalog.close();
    lake.close();
  }

  private List<List<Object>> query(String sql, Object... parameters) {
    PreparedQuery prepared = service.prepare(sql);
    LakeTestSupport.Result result = LakeTestSupport.collect(service.execute(sql, prepared.pins(),
        Arrays.asList(parameters), lake.allocator));
    assertThat(result.schema()).as("executed schema equals prepared schema").isEqualTo(prepared.resultSchema());
    return result.rows();
  }

  private List<Object> ids(String sql) {
    return query(sql).stream().map(r -> r.get(0)).sorted().toList();
  }

  @Test
  void timeTravelReadsRetainedVersionsByVersionAndTimestamp() {
    TableRegistration v1 = lake.create("t", SCHEMA, List.of(row(1L, "one"), row(2L, "two")), T0);
    TableRegistration v2 = lake.append(v1, SCHEMA, List.of(row(3L, "three")), T0.plusSeconds(60));
    // Lance versions the registry never heard of: a write whose registry write failed, then the leader's restore.
    long orphan = lake.appendUnregistered(v2, SCHEMA, List.of(row(99L, "orphan")));
    long restored = lake.engine.restore(v2.location(), v2.version());
    TableRegistration v5 = lake.append(v2, SCHEMA, List.of(row(4L, "four")), T0.plusSeconds(120));
    assertThat(List.of(v1.version(), v2.version(), orphan, restored, v5.version())).containsExactly(1L, 2L, 3L, 4L,
        5L);
    catalog.registered(v5);

    // By version: every registered version.
    assertThat(ids("SELECT id FROM \"t@v1\"")).containsExactly(1L, 2L);
    assertThat(ids("SELECT id FROM \"T@V2\"")).containsExactly(1L, 2L, 3L);
    assertThat(ids("SELECT id FROM lake.main.\"t@v5\"")).containsExactly(1L, 2L, 3L, 4L);
    assertThat(ids("SELECT id FROM t")).containsExactly(1L, 2L, 3L, 4L);

    // By instant: the greatest registered version registered at or before it (UTC).
    assertThat(ids("SELECT id FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:30'"))
        .containsExactly(1L, 2L);
    assertThat(ids("SELECT id FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:01:00'"))
        .as("exactly when v2 was registered").containsExactly(1L, 2L, 3L);
    assertThat(ids("SELECT id FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-06-01 00:00:00'"))
        .containsExactly(1L, 2L, 3L, 4L);
    assertThat(ids("SELECT t.id FROM lake.main.t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'"
        + " WHERE t.id > 1")).as("the implicit alias is the table name").containsExactly(2L);
    assertThat(query("SELECT earlier.name FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:01:30' AS earlier"
        + " WHERE earlier.id = ?", 3L)).containsExactly(row("three"));

    // One statement reads a table at two versions: both pins survive, keyed by the reference.
    String union = "SELECT id FROM \"t@v1\" UNION ALL SELECT id FROM t";
    PreparedQuery prepared = service.prepare(union);
    assertThat(prepared.pins()).containsOnlyKeys("t@v1", "t");
    assertThat(prepared.pins().get("t@v1").version()).isEqualTo(1);
    assertThat(prepared.pins().get("t")).isEqualTo(TablePin.of(v5));
    assertThat(LakeTestSupport.collect(service.execute(union, prepared.pins(), List.of(), lake.allocator)).rows())
        .hasSize(6);
    String join = "SELECT COUNT(*) FROM t AS cur JOIN t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00' AS"
        + " earlier ON cur.id = earlier.id";
    assertThat(query(join)).containsExactly(row(2L));
    assertThat(service.prepare(join).pins()).containsOnlyKeys("t", "t@2026-01-01T00:00:00Z");

    // Lance versions that were never registered are not readable, nor are versions that do not exist yet.
    for (long never : new long[] {orphan, restored, 9}) {
      assertThatThrownBy(() -> service.prepare("SELECT id FROM \"t@v" + never + "\""))
          .isInstanceOf(TableNotFoundException.class)
          .hasMessageContaining("version " + never + " of table 't' was never registered");
    }
    assertThatThrownBy(() -> service.prepare("SELECT id FROM t FOR SYSTEM_TIME AS OF TIMESTAMP"
        + " '2025-12-31 23:59:59'")).isInstanceOf(TableNotFoundException.class).hasMessageContaining("did not exist");
    assertThatThrownBy(() -> service.prepare("SELECT id FROM \"nope@v1\""))
        .isInstanceOf(TableNotFoundException.class).hasMessageContaining("'nope' does not exist");

    // Retention expires v1's history item: v1 is no longer readable, and the answer names the oldest retained.
    lake.registry.deleteHistory(lake.fence, "t", v1.generation(), List.of(1L));
    ticker.advance(Duration.ofSeconds(31)); // the cached history lives for the ttl
    catalog.refreshIfDue();
    assertThatThrownBy(() -> service.prepare("SELECT id FROM \"t@v1\""))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("version 1 of table 't' is no longer retained: the oldest retained version is 2");
    assertThatThrownBy(() -> service.prepare("SELECT id FROM t FOR SYSTEM_TIME AS OF TIMESTAMP"
        + " '2026-01-01 00:00:30'")).isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("no longer retained: the oldest retained version is 2");
    assertThat(ids("SELECT id FROM \"t@v2\"")).containsExactly(1L, 2L, 3L);

    // A ticket's pins hold: the statement prepared at v5 still reads v5 after the table moved on.
    PreparedQuery atV5 = service.prepare("SELECT id FROM t");
    TableRegistration v6 = lake.append(v5, SCHEMA, List.of(row(6L, "six")), T0.plusSeconds(180));
    catalog.registered(v6);
    assertThat(LakeTestSupport.collect(service.execute("SELECT id FROM t", atV5.pins(), List.of(),
        lake.allocator)).rows()).hasSize(4);
    assertThat(ids("SELECT id FROM t")).hasSize(5);
  }

  @Test
  void timeTravelReadsTheSchemaOfTheVersion() {
    TableRegistration v1 = lake.create("t", SCHEMA, List.of(row(1L, "one")), T0);
    Schema replaced = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("amount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    TableRegistration v2 = lake.overwrite(v1, replaced, List.of(row(7L, 2.5)), T0.plusSeconds(60));
    catalog.registered(v2);

    assertThat(service.prepare("SELECT * FROM \"t@v1\"").resultSchema().getFields())
        .extracting(Field::getName).containsExactly("id", "name");
    assertThat(query("SELECT * FROM \"t@v1\"")).containsExactly(row(1L, "one"));
    assertThat(query("SELECT * FROM t")).containsExactly(row(7L, 2.5));
    assertThatThrownBy(() -> service.prepare("SELECT amount FROM \"t@v1\""))
        .isInstanceOf(QueryRejectedException.class);
  }

  @Test
  void timeTravelTakesATimestampLiteralOnATableName() {
    lake.create("t", SCHEMA, List.of(row(1L, "one")), T0);
    assertThatThrownBy(() -> service.prepare("SELECT * FROM t FOR SYSTEM_TIME AS OF ?"))
        .isInstanceOf(QueryRejectedException.class).hasMessageContaining("TIMESTAMP literal");
    assertThatThrownBy(() -> service.prepare("SELECT * FROM t FOR SYSTEM_TIME AS OF CURRENT_TIMESTAMP"))
        .isInstanceOf(QueryRejectedException.class).hasMessageContaining("TIMESTAMP literal");
    assertThatThrownBy(() -> service.prepare("SELECT * FROM \"t@yesterday\""))
        .isInstanceOf(QueryRejectedException.class).hasMessageContaining("not a table reference");
  }

  @Test
  void tableReferencesParseAndPrintCanonically() {
    assertThat(TableReference.parse("Orders")).contains(TableReference.current("orders"));
    assertThat(TableReference.parse("T@V042").map(TableReference::key)).contains("t@v42");
    assertThat(TableReference.parse("t@2026-01-01t00:00:00z"))
        .contains(TableReference.asOf("t", Instant.parse("2026-01-01T00:00:00Z")));
    assertThat(TableReference.parse("t@2026-01-01T00:00:00Z").orElseThrow().key()).isEqualTo("t@2026-01-01T00:00:00Z");
    assertThat(TableReference.parse("s3://bucket/t")).isEmpty();
    assertThat(TableReference.parse("t@")).isEmpty();
    assertThat(TableReference.parse("@v1")).isEqualTo(Optional.empty());
    assertThat(PinnedTables.normalize(Map.of("T@V1", new TablePin("t", "g", "/l/", 1))))
        .containsOnlyKeys("t@v1");
  }
}
