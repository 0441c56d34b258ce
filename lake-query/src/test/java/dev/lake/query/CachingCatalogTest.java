package dev.lake.query;

import dev.lake.query.model.TablePin;
import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog cache shield (docs/design.md invariant 6) over a real RocksDB registry and real Lance tables, queried
 * through {@link QueryService}; a counting wrapper of the registry observes every call and injects outages; the
 * background schedule is driven by the test's ticker ({@link CachingCatalog#refreshIfDue()} is what the scheduler
 * polls).
 */
class CachingCatalogTest {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));
  private static final List<List<Object>> ROWS = List.of(row(1L, "one"), row(2L, "two"), row(3L, "three"));
  private static final CatalogSettings SETTINGS =
      CatalogSettings.of(Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofSeconds(2));

  @TempDir
  Path dir;

  private RegistryLake lake;
  private final ManualTicker ticker = new ManualTicker();
  private CachingCatalog catalog;
  private QueryService service;

  @BeforeEach
  void openLake() {
    lake = new RegistryLake(dir);
  }

  @AfterEach
  void closeLake() {
    lake.assertNothingOpen();
    if (catalog != null) {
      catalog.close();
    }
    lake.close();
  }

  private void startCatalog() {
    catalog = new CachingCatalog(lake.store, SETTINGS, ticker);
    catalog.refresh();
    service = new QueryService(catalog, lake.engine, QueryOptions.defaults());
  }

  private List<List<Object>> query(String sql, Object... parameters) {
    PreparedQuery prepared = service.prepare(sql);
    return LakeTestSupport.collect(service.execute(sql, prepared.pins(), Arrays.asList(parameters),
        lake.allocator)).rows();
  }

  @Test
  void repeatedQueriesDoNotRescanRegistryWithinTtl() {
    lake.create("orders", SCHEMA, ROWS, RegistryLake.T0);
    lake.create("customers", SCHEMA, ROWS, RegistryLake.T0);
    startCatalog();
    assertThat(lake.store.calls()).as("the start-up refresh: one listing").isEqualTo(Map.of("list", 1));

    for (int i = 0; i < 100; i++) {
      ticker.advance(Duration.ofMillis(250)); // 25 s in all: inside the 30 s ttl
      catalog.refreshIfDue(); // what the background schedule polls
      long id = i % 3 + 1;
      assertThat(query("SELECT name FROM orders WHERE id = ?", id)).hasSize(1);
      if (i % 10 == 0) {
        assertThat(query("SELECT COUNT(*) FROM orders o JOIN customers c ON o.id = c.id")).containsExactly(row(3L));
      }
    }
    assertThat(lake.store.calls()).as("100 queries inside the ttl call the registry not at all")
        .isEqualTo(Map.of("list", 1));

    ticker.advance(Duration.ofSeconds(5)); // 30 s after the start-up refresh: the scheduled one is due
    catalog.refreshIfDue();
    for (int i = 0; i < 100; i++) {
      ticker.advance(Duration.ofMillis(250));
      catalog.refreshIfDue();
      assertThat(query("SELECT name FROM orders WHERE id = ?", 2L)).containsExactly(row("two"));
    }
    assertThat(lake.store.calls()).as("one scheduled refresh, nothing else").isEqualTo(Map.of("list", 2));
    CatalogStats stats = catalog.stats();
    assertThat(stats.refreshes()).isEqualTo(2);
    assertThat(stats.pointLoads()).isZero();
    assertThat(stats.misses()).isZero();
    assertThat(stats.tables()).isEqualTo(2);
    assertThat(stats.snapshotAge()).isEqualTo(Duration.ofSeconds(25));
  }

  @Test
  void registryErrorsSurfaceRatherThanTableNotFound() {
    lake.create("orders", SCHEMA, ROWS, RegistryLake.T0);
    startCatalog();
    lake.store.setDown(true);

    // A name the snapshot lacks needs a point read: the outage is an error, not "no such table".
    assertThatThrownBy(() -> service.prepare("SELECT * FROM fresh"))
        .isInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("does not answer");
    assertThatThrownBy(() -> catalog.table("fresh")).isInstanceOf(RegistryUnavailableException.class);
    // Time travel reads the history: unavailable too.
    assertThatThrownBy(() -> service.prepare("SELECT * FROM \"orders@v1\""))
        .isInstanceOf(RegistryUnavailableException.class);
    // Tables the snapshot holds are still served.
    assertThat(query("SELECT COUNT(*) FROM orders")).containsExactly(row(3L));

    // The failure was not remembered as "missing": once the registry answers, the table is found.
    lake.create("fresh", SCHEMA, ROWS, RegistryLake.T0);
    lake.store.setDown(false);
    assertThat(query("SELECT COUNT(*) FROM fresh")).containsExactly(row(3L));

    // A node whose registry does not answer at start-up does not start with an empty catalog.
    lake.store.setDown(true);
    assertThatThrownBy(() -> CachingCatalog.start(lake.store, SETTINGS))
        .isInstanceOf(RegistryUnavailableException.class);
  }

  @Test
  void lastGoodSnapshotServedDuringBackendOutage() {
    lake.create("orders", SCHEMA, ROWS, RegistryLake.T0);
    startCatalog();
    lake.store.setDown(true);

    ticker.advance(Duration.ofSeconds(31));
    catalog.refreshIfDue();
    assertThat(catalog.stats().refreshFailures()).isEqualTo(1);
    assertThat(query("SELECT COUNT(*) FROM orders")).containsExactly(row(3L));

    ticker.advance(Duration.ofSeconds(60));
    catalog.refreshIfDue();
    assertThat(catalog.stats().refreshFailures()).isEqualTo(2);
    assertThat(query("SELECT name FROM orders WHERE id = ?", 3L)).containsExactly(row("three"));
    assertThat(catalog.tables()).extracting(TableRegistration::name).containsExactly("orders");

    // Past the staleness bound (2 min) the snapshot is refused, naming the registry.
    ticker.advance(Duration.ofSeconds(30));
    catalog.refreshIfDue();
    assertThatThrownBy(() -> service.prepare("SELECT COUNT(*) FROM orders"))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessage("the registry " + lake.store.describe() + " has not answered for 2m1s (staleness bound 2m):"
            + " retry");
    assertThatThrownBy(() -> catalog.tables()).isInstanceOf(RegistryUnavailableException.class);

    // The registry answers again: the next scheduled refresh restores service.
    lake.store.setDown(false);
    ticker.advance(Duration.ofSeconds(30));
    catalog.refreshIfDue();
    assertThat(query("SELECT COUNT(*) FROM orders")).containsExactly(row(3L));
    assertThat(catalog.stats().refreshes()).isEqualTo(2);
    assertThat(catalog.stats().refreshFailures()).isEqualTo(3);
  }

  @Test
  void concurrentMissesCoalesceIntoOneLoad() throws Exception {
    lake.create("orders", SCHEMA, ROWS, RegistryLake.T0);
    startCatalog();
    TableRegistration late = lake.create("late", SCHEMA, ROWS, RegistryLake.T0); // behind the cache's back
    CountDownLatch release = new CountDownLatch(1);
    lake.store.holdPointReads(release);
    AtomicInteger threads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(16,
        runnable -> new Thread(runnable, "test-query-" + threads.incrementAndGet()));
    try {
      List<Future<PreparedQuery>> queries = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        queries.add(pool.submit(() -> service.prepare("SELECT * FROM late")));
      }
      Polling.await("all 16 queries wait for the one point read", () -> catalog.stats().misses() == 16
          && lake.store.calls("get") == 1, Duration.ofSeconds(20));
      release.countDown();
      for (Future<PreparedQuery> query : queries) {
        assertThat(query.get(30, TimeUnit.SECONDS).pins()).isEqualTo(Map.of("late", TablePin.of(late)));
      }
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    assertThat(lake.store.calls("get")).as("point reads of 'late'").isEqualTo(1);
    assertThat(catalog.stats().pointLoads()).isEqualTo(1);
    // Known now: the next look-up costs nothing.
    assertThat(query("SELECT COUNT(*) FROM late")).containsExactly(row(3L));
    assertThat(lake.store.calls("get")).isEqualTo(1);
  }

  @Test
  void missingNameCostsOnePointReadAndIsBelievedOnlyBriefly() {
    startCatalog();
    assertThatThrownBy(() -> service.prepare("SELECT * FROM nope")).isInstanceOf(TableNotFoundException.class);
    assertThatThrownBy(() -> service.prepare("SELECT * FROM nope")).isInstanceOf(TableNotFoundException.class);
    assertThat(lake.store.calls("get")).as("the negative answer is cached").isEqualTo(1);

    lake.create("nope", SCHEMA, ROWS, RegistryLake.T0);
    ticker.advance(Duration.ofSeconds(1));
    assertThatThrownBy(() -> service.prepare("SELECT * FROM nope")).isInstanceOf(TableNotFoundException.class);
    ticker.advance(Duration.ofMillis(1_500)); // past the 2 s negative ttl
    assertThat(query("SELECT COUNT(*) FROM nope")).containsExactly(row(3L));
    assertThat(query("SELECT COUNT(*) FROM nope")).containsExactly(row(3L));
    assertThat(lake.store.calls("get")).isEqualTo(2);
    assertThat(lake.store.calls("list")).isEqualTo(1);
  }

  @Test
  void acknowledgedWritesAreReadAtOnceAndNeverReplacedByAStaleRefresh() {
    TableRegistration v1 = lake.create("t", SCHEMA, ROWS, RegistryLake.T0);
    startCatalog();
    TableRegistration v2 = lake.append(v1, SCHEMA, List.of(row(4L, "four")), RegistryLake.T0.plusSeconds(1));
    assertThat(catalog.table("t")).as("cached within the ttl").contains(v1);
    assertThat(query("SELECT COUNT(*) FROM t")).containsExactly(row(3L));

    catalog.registered(v2);
    assertThat(catalog.table("t")).contains(v2);
    assertThat(query("SELECT COUNT(*) FROM t")).containsExactly(row(4L));
    catalog.registered(v1); // a late, older acknowledgement
    assertThat(catalog.table("t")).contains(v2);

    TableRegistration v3 = lake.append(v2, SCHEMA, List.of(row(5L, "five")), RegistryLake.T0.plusSeconds(2));
    catalog.registered(v3);
    ticker.advance(Duration.ofSeconds(30));
    catalog.refreshIfDue(); // lists v3: as new as the acknowledgement
    assertThat(catalog.table("t")).contains(v3);

    // Acknowledged, while a refresh lists an older state (the listing ran before the write landed).
    TableRegistration notListedYet = v3.withVersion(v3.version() + 100, v3.schema(), v3.term(),
        RegistryLake.T0.plusSeconds(3));
    catalog.registered(notListedYet);
    ticker.advance(Duration.ofSeconds(30));
    catalog.refreshIfDue(); // lists v3, older than what this node acknowledged
    assertThat(catalog.table("t")).contains(notListedYet);
    assertThat(catalog.tables()).containsExactly(notListedYet);

    // A drop hides the generation at once, though the snapshot still lists it.
    catalog.dropped("t", v1.generation());
    assertThat(catalog.table("t")).isEmpty();
    assertThat(catalog.tables()).isEmpty();
    assertThatThrownBy(() -> service.prepare("SELECT * FROM t")).isInstanceOf(TableNotFoundException.class);
    // A new incarnation acknowledged through this node is visible at once.
    TableRegistration recreated = new TableRegistration("t", UUID.randomUUID().toString(), "/nowhere/t/x/", 1,
        v1.schema(), v1.term(), RegistryLake.T0.plusSeconds(10), RegistryLake.T0.plusSeconds(10));
    catalog.registered(recreated);
    assertThat(catalog.table("t")).contains(recreated);
    assertThat(lake.store.calls("get")).as("own writes need no point read").isZero();
  }

  @Test
  void historyIsReadOnDemandAndKeptPerRegisteredVersion() {
    TableRegistration v1 = lake.create("t", SCHEMA, ROWS, RegistryLake.T0);
    startCatalog();
    assertThat(query("SELECT COUNT(*) FROM \"t@v1\"")).containsExactly(row(3L));
    assertThat(query("SELECT COUNT(*) FROM \"t@v1\" WHERE id > ?", 1L)).containsExactly(row(2L));
    assertThat(lake.store.calls("history")).isEqualTo(1);

    TableRegistration v2 = lake.append(v1, SCHEMA, List.of(row(4L, "four")), RegistryLake.T0.plusSeconds(1));
    catalog.registered(v2);
    assertThat(query("SELECT COUNT(*) FROM \"t@v" + v2.version() + "\"")).containsExactly(row(4L));
    assertThat(lake.store.calls("history")).as("the table moved on: its history is read again").isEqualTo(2);
    assertThat(catalog.stats().historyLoads()).isEqualTo(2);
  }

  @Test
  void settingsKeepTheRefreshInsideTheStalenessBound() {
    assertThat(CatalogSettings.defaults()).isEqualTo(new CatalogSettings(Duration.ofSeconds(30),
        Duration.ofMinutes(5), Duration.ofSeconds(2), Duration.ofSeconds(30)));
    assertThat(CatalogSettings.of(Duration.ofHours(1), Duration.ofMinutes(5), Duration.ofSeconds(2))
        .refreshInterval()).isEqualTo(Duration.ofSeconds(150));
    assertThatThrownBy(() -> new CatalogSettings(Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofSeconds(2),
        Duration.ofMinutes(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("staleness-bound");
    assertThatThrownBy(() -> CatalogSettings.of(Duration.ZERO, Duration.ofMinutes(5), Duration.ofSeconds(2)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void backgroundRefreshRunsOnItsNamedThreadUntilClosed() {
    TableRegistration v1 = lake.create("t", SCHEMA, ROWS, RegistryLake.T0);
    CatalogSettings fast = CatalogSettings.of(Duration.ofMillis(200), Duration.ofSeconds(30), Duration.ofSeconds(2));
    try (CachingCatalog background = CachingCatalog.start(lake.store, fast)) {
      assertThat(background.table("t")).contains(v1);
      TableRegistration v2 = lake.append(v1, SCHEMA, List.of(row(4L, "four")), RegistryLake.T0.plusSeconds(1));
      Polling.await("a background refresh lists v2", () -> background.table("t").equals(java.util.Optional.of(v2)),
          Duration.ofSeconds(20));
      assertThat(background.stats().refreshes()).isGreaterThanOrEqualTo(2);
      assertThat(refreshThreads()).isEqualTo(1);
    }
    Polling.await("the refresh thread stopped", () -> refreshThreads() == 0, Duration.ofSeconds(10));
  }

  private static long refreshThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().equals("lake-catalog-refresh") && thread.isAlive()).count();
  }
}
