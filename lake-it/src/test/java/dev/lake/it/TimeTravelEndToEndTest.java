package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time travel through a real server (docs/design.md "Time travel"): the ticket carries one pin per table reference, so
 * a statement can read a table at a registered version, at an instant, and at its current version at once. Needs the
 * ticket codec to keep each pin's reference key ({@code t}, {@code t@v1}, {@code t@2026-01-01T00:00:00Z}).
 */
class TimeTravelEndToEndTest {
  @TempDir
  Path dataDir;

  @Test
  void timeTravelThroughTheServer() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir);
        FlightTestClient client = server.client()) {
      ingest(client, "t", 0, 10, FlightTestClient.create()); // version 1
      ingest(client, "t", 100, 5, FlightTestClient.append()); // version 2

      assertThat(client.count("\"t@v1\"")).isEqualTo(10);
      assertThat(client.count("t")).isEqualTo(15);
      assertThat(client.count("t FOR SYSTEM_TIME AS OF TIMESTAMP '2999-01-01 00:00:00'")).isEqualTo(15);
      assertThat(client.rows("SELECT COUNT(*) FROM \"t@v1\" UNION ALL SELECT COUNT(*) FROM t"))
          .containsExactlyInAnyOrder(List.of(10L), List.of(15L));
      assertThat(Status.code(catchThrowable(() -> client.count("\"t@v7\"")))).isEqualTo("NOT_FOUND");
      assertThat(Status.code(catchThrowable(() -> client.count("t FOR SYSTEM_TIME AS OF TIMESTAMP"
          + " '2000-01-01 00:00:00'")))).isEqualTo("NOT_FOUND");
    }
  }

  private static void ingest(FlightTestClient client, String table, long first, int count,
      TableDefinitionOptions options) {
    try (VectorSchemaRoot root = CommitProtocolTest.batch(client.allocator(), first, count)) {
      client.ingest(table, root, options);
    }
  }
}
