package dev.lake.flight.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.flight.OneRowBatches;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.junit.jupiter.api.Test;

/** The client side of bulk ingest waits for the transport by pausing, never by calling {@code isReady()} in a spin. */
class BulkIngestPutTest {

  @Test
  void aBatchWaitsForTheTransportByPausingAndIsPutOnlyOnceItIsReady() throws Exception {
    List<String> events = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = new OneRowBatches(allocator, 2, -1)) {
      Transport transport = new Transport(events, 3);
      BulkIngestPut.stream(reader, transport, () -> false, () -> events.add("pause"));
    }
    assertThat(events).containsExactly("pause", "pause", "pause", "put", "pause", "pause", "pause", "put",
        "completed");
  }

  @Test
  void aCallThatEndedStopsTheWaitAndItsErrorComesFromTheResult() throws Exception {
    List<String> events = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = new OneRowBatches(allocator, 1, -1)) {
      BulkIngestPut.stream(reader, new Transport(events, Integer.MAX_VALUE), () -> true, () -> events.add("pause"));
    }
    assertThat(events).containsExactly("put", "completed");
  }

  @Test
  void aReaderThatFailsFailsTheStreamSoNothingIsCommitted() throws Exception {
    List<String> events = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator(); ArrowReader reader = new OneRowBatches(allocator, 3, 1)) {
      assertThatThrownBy(() -> BulkIngestPut.stream(reader, new Transport(events, 0), () -> false,
          () -> events.add("pause"))).isInstanceOf(IOException.class).hasMessageContaining("unreadable");
    }
    assertThat(events).containsExactly("put", "error unreadable batch 2");
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
