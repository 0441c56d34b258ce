package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statement limits (docs/api.md): each one exceeded is refused with INVALID_ARGUMENT naming the limit and its key,
 * fast, before planning; statements at the limits plan and run.
 */
class StatementLimitsTest {
  @TempDir
  Path dataDir;

  static String nested(String open, String close, String leaf, int depth) {
    return open.repeat(depth) + leaf + close.repeat(depth);
  }

  static String joined(String separator, String item, int n) {
    List<String> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(item.replace("#", Integer.toString(i)));
    }
    return String.join(separator, items);
  }

  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void statementLimitsAnswerFast() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir); FlightTestClient client = server.client()) {
      Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true))));
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
        ((BigIntVector) root.getVector(0)).allocateNew(3);
        for (int i = 0; i < 3; i++) {
          ((BigIntVector) root.getVector(0)).set(i, i);
        }
        root.setRowCount(3);
        client.ingest("t", root, FlightTestClient.create());
      }
      Map<String, String> over = new LinkedHashMap<>();
      over.put("query.max-expression-depth", "SELECT " + nested("abs(", ")", "id", 500) + " FROM t");
      over.put("query.max-expression-depth (NOT)", "SELECT id FROM t WHERE " + "NOT ".repeat(500) + "id = 1");
      over.put("query.max-statement-length", "SELECT " + joined(" + ", "1", 600_000) + " FROM t");
      over.put("query.max-in-list", "SELECT id FROM t WHERE id IN (" + joined(", ", "#", 10_001) + ")");
      over.put("query.max-joins", "SELECT t0.id FROM t t0" + joined("", " JOIN t t# ON t#.id = t0.id", 40)
          .replace(" t t0 ON t0.id = t0.id", " t t40 ON t40.id = t0.id"));
      over.put("query.max-set-operations", joined(" UNION ALL ", "SELECT id FROM t", 102));
      over.put("query.max-parameters", "VALUES (" + joined(", ", "CAST(? AS BIGINT)", 10_001) + ")");
      over.put("LIMIT", "SELECT id FROM t LIMIT 9223372036854775807 OFFSET 9223372036854775807");
      Map<String, Long> millis = new LinkedHashMap<>();
      List<String> wrong = new ArrayList<>();
      for (Map.Entry<String, String> c : over.entrySet()) {
        String key = c.getKey().split(" ")[0];
        // warm the path once (class loading), then measure
        for (int run = 0; run < 2; run++) {
          long start = System.nanoTime();
          try {
            client.sql().prepare(c.getValue(), client.auth()).close(client.auth());
            wrong.add(c.getKey() + ": accepted");
          } catch (RuntimeException e) {
            long ms = (System.nanoTime() - start) / 1_000_000;
            if (!Status.code(e).equals("INVALID_ARGUMENT") || !String.valueOf(e.getMessage()).contains(key)) {
              wrong.add(c.getKey() + ": " + Status.code(e) + " " + e.getMessage());
            }
            millis.put(c.getKey(), ms);
          }
        }
      }
      System.out.println("statement limits: refusal round trips in ms " + millis);
      assertThat(wrong).isEmpty();
      // a benchmark figure, asserted loosely (the machine is shared): the 500-deep refusal is far from seconds
      assertThat(millis.get("query.max-expression-depth")).isLessThan(1_000);

      // at the limits, statements plan and run (no stack overflow, no INTERNAL)
      List<List<Object>> deep = client.rows("SELECT " + nested("abs(", ")", "id", 120) + " AS v FROM t ORDER BY v");
      assertThat(deep).hasSize(3);
      assertThat(client.rows("SELECT id FROM t WHERE " + "NOT ".repeat(120) + "id = 1")).hasSize(1);
      assertThat(client.rows("SELECT id FROM t WHERE id IN (" + joined(", ", "#", 200) + ")")).hasSize(3);
      assertThat(client.rows(joined(" UNION ALL ", "SELECT id FROM t", 100))).hasSize(300);
      assertThat(client.rows("SELECT count(*) FROM t t0" + joined("", " JOIN t t# ON t#.id = t0.id", 8)
          .replace(" t t0 ON t0.id = t0.id", " t t8 ON t8.id = t0.id"))).containsExactly(List.of(3L));
    }
  }
}
