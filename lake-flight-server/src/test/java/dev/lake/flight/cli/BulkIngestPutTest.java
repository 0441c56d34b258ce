package dev.lake.flight.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The client side of bulk ingest waits for the transport by pausing, never by calling {@code isReady()} in a spin. */
class BulkIngestPutTest {
  private static final Schema SCHEMA = new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true))));

  @Test
  void aBatchWaitsForTheTransportByPausingAndIsPutOnlyOnceItIsReady() throws Exception {
    List<String> events = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = new Batches(allocator, 2, -1)) {
      Transport transport = new Transport(events, 3);
      BulkIngestPut.stream(reader, transport, () -> false, () -> events.add("pause"));
    }
    assertThat(events).containsExactly("pause", "pause", "pause", "put", "pause", "pause", "pause", "put",
        "completed");
  }

  @Test
  void aCallThatEndedStopsTheWaitAndItsErrorComesFromTheResult() throws Exception {
    List<String> events = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = new Batches(allocator, 1, -1)) {
      BulkIngestPut.stream(reader, new Transport(events, Integer.MAX_VALUE), () -> true, () -> events.add("pause"));
    }
    assertThat(events).containsExactly("put", "completed");
  }

  @Test
  void aReaderThatFailsFailsTheStreamSoNothingIsCommitted() throws Exception {
    List<String> events = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = new Batches(allocator, 3, 1)) {
      assertThatThrownBy(() -> BulkIngestPut.stream(reader, new Transport(events, 0), () -> false,
          () -> events.add("pause"))).isInstanceOf(IOException.class).hasMessageContaining("unreadable");
    }
    assertThat(events).containsExactly("put", "error unreadable batch 2");
  }

  /** {@code batches} one-row batches; the one at index {@code failAt} (if any) cannot be read. */
  private static final class Batches extends ArrowReader {
    private final int batches;
    private final int failAt;
    private int loaded;

    Batches(BufferAllocator allocator, int batches, int failAt) {
      super(allocator);
      this.batches = batches;
      this.failAt = failAt;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (loaded == failAt) {
        throw new IOException("unreadable batch " + (loaded + 1));
      }
      if (loaded == batches) {
        return false;
      }
      VectorSchemaRoot root = getVectorSchemaRoot();
      ((BigIntVector) root.getVector("k")).setSafe(0, ++loaded);
      root.setRowCount(1);
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

  /** Ready only after {@code notReady} checks per batch; records puts and the stream's end. */
  private static final class Transport implements FlightClient.ClientStreamListener {
    private final List<String> events;
    private final int notReady;
    private int checks;

    Transport(List<String> events, int notReady) {
      this.events = events;
      this.notReady = notReady;
    }

    @Override
    public boolean isReady() {
      return checks++ >= notReady;
    }

    @Override
    public void start(VectorSchemaRoot root, DictionaryProvider dictionaries, IpcOption option) {}

    @Override
    public void putNext() {
      if (checks <= notReady && notReady != Integer.MAX_VALUE) {
        throw new AssertionError("a batch was put while the transport was not ready");
      }
      events.add("put");
      checks = 0;
    }

    @Override
    public void putNext(ArrowBuf metadata) {
      putNext();
    }

    @Override
    public void putMetadata(ArrowBuf metadata) {}

    @Override
    public void error(Throwable e) {
      events.add("error " + e.getMessage());
    }

    @Override
    public void completed() {
      events.add("completed");
    }

    @Override
    public void getResult() {}
  }
}
