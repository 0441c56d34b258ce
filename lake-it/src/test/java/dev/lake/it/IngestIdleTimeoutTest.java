package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.AsyncPutListener;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** ingest.idle-timeout: a client that stops sending mid-ingest does not hold a server thread forever. */
class IngestIdleTimeoutTest {
  @TempDir
  Path dataDir;

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // without the idle timeout: a hang
  void abandonedIngestIsStoppedAfterIdleTimeout() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> {}, Map.of("ingest.idle-timeout", "1s"));
        FlightTestClient client = server.client()) {
      Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true))));
      CommandStatementIngest command = CommandStatementIngest.newBuilder().setTable("stalled")
          .setTableDefinitionOptions(FlightTestClient.create()).build();
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
        ((BigIntVector) root.getVector(0)).allocateNew(3);
        for (int i = 0; i < 3; i++) {
          ((BigIntVector) root.getVector(0)).set(i, i);
        }
        root.setRowCount(3);
        FlightClient.ClientStreamListener put = client.flight().startPut(
            FlightDescriptor.command(Any.pack(command).toByteArray()), root, new AsyncPutListener(), client.auth());
        put.putNext();
        // ... and then nothing: neither completed() nor error(). The server's answer is the proof that its ingest
        // thread stopped waiting (the answer is sent when that thread gives up), well before the 5 min default.
        assertThatThrownBy(put::getResult)
            .satisfies(e -> assertThat(Status.code(e)).isEqualTo("DEADLINE_EXCEEDED"))
            .hasMessageContaining("ingest.idle-timeout");
      }
      assertThat(server.server().metaStore().get("stalled")).as("nothing of the abandoned ingest was registered")
          .isEmpty();

      // The server still ingests normally, into the very table the abandoned ingest would have created.
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
        ((BigIntVector) root.getVector(0)).allocateNew(1);
        ((BigIntVector) root.getVector(0)).set(0, 42);
        root.setRowCount(1);
        assertThat(client.ingest("stalled", root, FlightTestClient.create())).isEqualTo(1);
      }
      assertThat(client.count("stalled")).isEqualTo(1);
    }
  }
}
