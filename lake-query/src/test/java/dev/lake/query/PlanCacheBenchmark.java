package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evidence, not a timed assertion: latency of {@code prepare + execute + read all rows} through {@link QueryService}
 * with and without the plan cache, over a real RocksDB registry (caching catalog) and a real 10,000-row Lance table.
 * Runs only with {@code -Dlake.bench=true}:
 * {@code ./mvnw -B -q -o -pl lake-query test -Dtest=PlanCacheBenchmark -Dlake.bench=true}; prints p50/p99 and writes
 * them to {@code target/plan-cache-benchmark.txt}.
 */
@EnabledIfSystemProperty(named = "lake.bench", matches = "true")
class PlanCacheBenchmark {
  private static final int ROWS = 10_000;
  private static final int WARMUP = 300;
  private static final int MEASURED = 1_000;
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  @TempDir
  Path dir;

  @Test
  void pointQueryLatencyWithAndWithoutPlanCache() throws IOException {
    List<String> report = new ArrayList<>();
    try (RegistryLake lake = new RegistryLake(dir)) {
      List<List<Object>> rows = new ArrayList<>();
      for (long id = 0; id < ROWS; id++) {
        rows.add(row(id, "name-" + id));
      }
      lake.create("t", SCHEMA, rows, RegistryLake.T0);
      try (CachingCatalog catalog = new CachingCatalog(lake.store, CatalogSettings.defaults(), new ManualTicker())) {
        catalog.refresh();
        QueryService cached = new QueryService(catalog, lake.engine, QueryOptions.defaults());
        QueryService uncached = new QueryService(catalog, lake.engine, QueryOptions.defaults().withPlanCacheSize(0));
        String[][] statements = {
            {"point query (pass-through)", "SELECT id, name FROM t WHERE id = ?"},
            {"aggregate with a parameter (Calcite path)", "SELECT COUNT(*), MAX(name) FROM t WHERE id < ?"},
            {"aggregate without parameters (Calcite path)", "SELECT COUNT(*), MAX(name) FROM t WHERE id < 100"},
        };
        for (String[] statement : statements) {
          for (QueryService service : List.of(uncached, cached, uncached, cached)) {
            run(lake, service, statement[1], WARMUP);
          }
          long[] without = run(lake, uncached, statement[1], MEASURED);
          long[] with = run(lake, cached, statement[1], MEASURED);
          report.add(String.format(Locale.ROOT, "%s: %s%n  without plan cache: %s%n  with plan cache:    %s",
              statement[0], statement[1], summary(without), summary(with)));
        }
        report.add("plan cache " + cached.planCacheStats());
        lake.assertNothingOpen();
      }
    }
    String text = String.join(System.lineSeparator(), report);
    System.out.println(text);
    Files.writeString(Path.of("target", "plan-cache-benchmark.txt"), text + System.lineSeparator());
  }

  /** Nanoseconds of each prepare + execute + drain. */
  private static long[] run(RegistryLake lake, QueryService service, String sql, int times) {
    SplittableRandom random = new SplittableRandom(42);
    long[] nanos = new long[times];
    for (int i = 0; i < times; i++) {
      List<Object> parameters = sql.contains("?") ? List.of(random.nextLong(ROWS)) : List.of();
      long start = System.nanoTime();
      PreparedQuery prepared = service.prepare(sql);
      LakeTestSupport.Result result = LakeTestSupport.collect(service.execute(sql, prepared.pins(), parameters,
          lake.allocator));
      nanos[i] = System.nanoTime() - start;
      assertThat(result.rows()).hasSize(1);
    }
    return nanos;
  }

  private static String summary(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double mean = Arrays.stream(sorted).average().orElse(0);
    return String.format(Locale.ROOT, "p50 %s  p99 %s  mean %s  (n=%d)", ms(sorted[sorted.length / 2]),
        ms(sorted[(int) Math.ceil(sorted.length * 0.99) - 1]), ms((long) mean), sorted.length);
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.3f ms", Duration.ofNanos(nanos).toNanos() / 1e6);
  }
}
