package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md invariant 6, read-your-writes, through a real server whose catalog believes what it cached for an hour
 * (ttl and negative ttl 1 h): every write that passed through the node is visible to the node's next query at once.
 * Needs lake-flight-server to build its catalog as a {@code CachingCatalog} from the {@code catalog.*} keys.
 */
class ReadYourWritesTest {
  private static final Map<String, String> CACHE_FOR_AN_HOUR =
      Map.of("catalog.ttl", "1h", "catalog.negative-ttl", "1h");

  @TempDir
  Path dataDir;

  @Test
  void nodeReadsItsOwnWrites() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> { }, CACHE_FOR_AN_HOUR);
        FlightTestClient client = server.client()) {
      // The node learns that there is no table 't' and may believe it for an hour...
      assertThat(Status.code(catchThrowable(() -> client.count("t")))).isEqualTo("NOT_FOUND");

      // ...but a create through this node is visible to its next query,
      ingest(client, "t", 0, 10, FlightTestClient.create());
      assertThat(client.count("t")).isEqualTo(10);
      // and so is every append, though the node cached the previous version for an hour,
      ingest(client, "t", 100, 5, FlightTestClient.append());
      assertThat(client.count("t")).isEqualTo(15);
      ingest(client, "t", 200, 1, FlightTestClient.append());
      assertThat(client.count("t")).isEqualTo(16);

      // a drop,
      drop(client, "t");
      assertThat(Status.code(catchThrowable(() -> client.count("t")))).isEqualTo("NOT_FOUND");
      // and a new incarnation under the same name.
      ingest(client, "t", 300, 3, FlightTestClient.create());
      assertThat(client.count("t")).isEqualTo(3);
      assertThat(client.rows("SELECT MIN(v), MAX(v) FROM t").get(0)).containsExactly(300L, 302L);
    }
  }

  private static void ingest(FlightTestClient client, String table, long first, int count,
      TableDefinitionOptions options) {
    try (VectorSchemaRoot root = CommitProtocolTest.batch(client.allocator(), first, count)) {
      client.ingest(table, root, options);
    }
  }

  private static void drop(FlightTestClient client, String table) {
    Iterator<Result> results = client.flight().doAction(new Action("lake.drop_table",
        ("{\"table\":\"" + table + "\"}").getBytes(StandardCharsets.UTF_8)), client.auth());
    while (results.hasNext()) {
      results.next();
    }
  }
}
