package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.ServerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server process with a 256 MB heap and 256 MB of direct memory ingests ~1 GB (20 million rows of BIGINT,
 * DOUBLE and a ~32-character VARCHAR) and streams it all back. Its peak RSS is recorded as a figure, not asserted.
 */
class LargeResultTest {
  static final long ROWS = 20_000_000L;
  private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", new ArrowType.Utf8())));

  @TempDir
  Path dir;

  @Test
  void largeResultStreamsThroughSmallHeap() throws Exception {
    Map<String, String> env = Map.of(
        "LAKE_JAVA_OPTS", "-Xmx256m -XX:MaxDirectMemorySize=256m",
        "LAKE_QUERY_MEMORY_LIMIT", "128MB",
        "LAKE_INGEST_MEMORY_LIMIT", "128MB");
    try (ServerProcess server = ServerProcess.start(env, "--data-dir", dir.resolve("data").toString(), "--port",
        "0")) {
      long t0 = System.nanoTime();
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake");
          ArrowReader rows = new Rows(client.allocator())) {
        assertThat(client.ingest("big", rows, FlightTestClient.create(), Map.of())).isEqualTo(ROWS);
      }
      long t1 = System.nanoTime();
      long streamed = 0;
      long firstBatchNanos = -1;
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        long q0 = System.nanoTime();
        FlightInfo info = client.sql().execute("SELECT id, x, s FROM big", client.auth());
        try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
          while (stream.next()) {
            if (firstBatchNanos < 0) {
              firstBatchNanos = System.nanoTime() - q0;
            }
            streamed += stream.getRoot().getRowCount();
          }
        }
      }
      long t2 = System.nanoTime();
      assertThat(streamed).isEqualTo(ROWS);
      // Warm time to first batch: the same statement again, the client stopping after the first batch.
      long warmFirstBatchNanos;
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        long q0 = System.nanoTime();
        FlightInfo info = client.sql().execute("SELECT id, x, s FROM big", client.auth());
        FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth());
        assertThat(stream.next()).isTrue();
        warmFirstBatchNanos = System.nanoTime() - q0;
        stream.cancel("enough", null);
        try {
          stream.close();
        } catch (Exception cancelled) {
          // the cancellation is reported on close
        }
      }
      long rss = server.peakRssBytes();
      String figure = String.format("rows=%d ingestSeconds=%.1f ingestRowsPerSecond=%.0f streamSeconds=%.1f "
              + "streamRowsPerSecond=%.0f firstBatchMs=%.0f warmFirstBatchMs=%.1f serverPeakRssMB=%d "
              + "(heap 256m, direct 256m)%n", ROWS,
          (t1 - t0) / 1e9, ROWS / ((t1 - t0) / 1e9), (t2 - t1) / 1e9, ROWS / ((t2 - t1) / 1e9),
          firstBatchNanos / 1e6, warmFirstBatchNanos / 1e6, rss >> 20);
      System.out.print("FIGURE largeResultStreamsThroughSmallHeap " + figure);
      Path figures = Path.of("target", "figures");
      Files.createDirectories(figures);
      Files.writeString(figures.resolve("large-result.txt"), figure, StandardCharsets.UTF_8);
      assertThat(server.stop()).as("the server survived and stopped cleanly").isZero();
    }
  }

  /** 20 million generated rows, one 65,536-row batch at a time. */
  static final class Rows extends ArrowReader {
    private static final byte[][] TEXT = new byte[1000][];

    static {
      for (int i = 0; i < TEXT.length; i++) {
        TEXT[i] = String.format("lakehouse-row-payload-%010d", i).getBytes(StandardCharsets.UTF_8);
      }
    }

    private long produced;

    Rows(BufferAllocator allocator) {
      super(allocator);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (produced >= ROWS) {
        return false;
      }
      VectorSchemaRoot root = getVectorSchemaRoot();
      int n = (int) Math.min(65_536, ROWS - produced);
      BigIntVector id = (BigIntVector) root.getVector(0);
      Float8Vector x = (Float8Vector) root.getVector(1);
      VarCharVector s = (VarCharVector) root.getVector(2);
      id.allocateNew(n);
      x.allocateNew(n);
      s.allocateNew((long) n * 32, n);
      for (int i = 0; i < n; i++) {
        long v = produced + i;
        id.set(i, v);
        x.set(i, v * 0.5);
        s.setSafe(i, TEXT[(int) (v % TEXT.length)]);
      }
      root.setRowCount(n);
      produced += n;
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
  }
}
