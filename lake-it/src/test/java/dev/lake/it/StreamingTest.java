package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.ForwardingTableEngine;
import dev.lake.it.support.GatedScans;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Poll;
import dev.lake.it.support.Status;
import dev.lake.engine.StagedData;
import dev.lake.registry.TableRegistration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/design.md invariant 7 through the real server: results and ingests stream, with bounded memory. */
class StreamingTest {
  private static final Schema WIDE = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("payload", new ArrowType.Utf8())));

  @TempDir
  Path dataDir;

  @Test
  void flightEmitsFirstBatchBeforeProducerCompletes() throws Exception {
    AtomicReference<GatedScans> gated = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dataDir,
            b -> b.wrapEngine(e -> { gated.set(new GatedScans(e, "/stream_me/")); return gated.get(); }),
            Map.of("query.batch-rows", "1000"));
        FlightTestClient client = server.client()) {
      try (VectorSchemaRoot rows = CommitProtocolTest.batch(client.allocator(), 0, 50_000)) {
        client.ingest("stream_me", rows, FlightTestClient.create());
      }
      FlightInfo info = client.sql().execute("SELECT v FROM stream_me", client.auth());
      try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
        assertThat(stream.next()).isTrue();
        long first = stream.getRoot().getRowCount();
        assertThat(first).isPositive();
        // The client holds the first batch while the producer is still running (waiting at the gate).
        assertThat(gated.get().awaitProducerWaiting(60)).isTrue();
        assertThat(gated.get().producerFinished()).isFalse();
        gated.get().open();
        long total = first;
        while (stream.next()) {
          total += stream.getRoot().getRowCount();
        }
        assertThat(total).isEqualTo(50_000);
        assertThat(gated.get().producerFinished()).isTrue();
      }
    }
  }

  @Test
  void clientCancelReleasesResources() throws Exception {
    AtomicReference<GatedScans> gated = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dataDir,
            b -> b.wrapEngine(e -> { gated.set(new GatedScans(e, "/cancel_me/")); return gated.get(); }),
            Map.of("query.batch-rows", "1000"));
        FlightTestClient client = server.client()) {
      try (VectorSchemaRoot rows = CommitProtocolTest.batch(client.allocator(), 0, 50_000)) {
        client.ingest("cancel_me", rows, FlightTestClient.create());
      }
      FlightInfo info = client.sql().execute("SELECT v FROM cancel_me", client.auth());
      FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth());
      assertThat(stream.next()).isTrue();
      assertThat(gated.get().awaitProducerWaiting(60)).isTrue();
      assertThat(server.server().openHandles()).as("the query holds Lance handles while it runs").isPositive();
      stream.cancel("the client went away", null);
      gated.get().open();
      try {
        stream.close();
      } catch (Exception expected) {
        // closing a cancelled stream reports the cancellation
      }
      // Bounded polling: the server notices the cancel, stops the producer, releases memory and handles.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while ((server.server().openHandles() > 0 || server.server().queryMemory() > 0)
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.server().openHandles()).as("Lance handles after cancel").isZero();
      assertThat(server.server().queryMemory()).as("query memory after cancel").isZero();
      assertThat(gated.get().producerFinished()).as("the producer was stopped, not drained").isFalse();
      // and the server still serves
      assertThat(client.count("cancel_me")).isEqualTo(50_000);
    }
  }

  @Test
  void queryOverMemoryLimitFailsAloneWithResourceExhausted() throws Exception {
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> {},
            Map.of("query.memory-limit", "8MB", "query.batch-rows", "65536"));
        FlightTestClient client = server.client()) {
      // ~20 MB of strings in one 65,536-row batch: more than one query may hold at once.
      try (ArrowReader wide = new Generated(client.allocator(), 20_000, 20_000, 1000)) {
        client.ingest("wide", wide, FlightTestClient.create(), Map.of());
      }
      try (VectorSchemaRoot rows = CommitProtocolTest.batch(client.allocator(), 0, 10)) {
        client.ingest("small", rows, FlightTestClient.create());
      }
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        CompletableFuture<Throwable> big = CompletableFuture.supplyAsync(
            () -> catchThrowable(() -> client.rows("SELECT id, payload FROM wide")), pool);
        CompletableFuture<List<List<Object>>> small = CompletableFuture.supplyAsync(() -> {
          try {
            return client.rows("SELECT v FROM small");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }, pool);
        Throwable failure = big.get(120, TimeUnit.SECONDS);
        assertThat(failure).as("the query over the memory limit fails").isNotNull();
        assertThat(Status.code(failure)).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(failure.getMessage()).contains("memory limit");
        assertThat(small.get(120, TimeUnit.SECONDS)).hasSize(10);
      } finally {
        pool.shutdownNow();
      }
      assertThat(client.count("small")).isEqualTo(10);
    }
  }

  @Test
  void lanceConsumesIngestStreamWithoutCollecting() throws Exception {
    AtomicInteger consumed = new AtomicInteger();
    AtomicInteger stageFailures = new AtomicInteger();
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.wrapEngine(e -> new ForwardingTableEngine(e) {
          @Override
          public StagedData stage(String location, ArrowReader data) {
            try {
              return delegate.stage(location, new Watched(data, batch -> consumed.incrementAndGet()));
            } catch (RuntimeException failure) {
              stageFailures.incrementAndGet();
              throw failure;
            }
          }
        }));
        FlightTestClient client = server.client()) {
      // The client produces batch i only once the server's writer has pulled batch i - 4: if the server collected
      // the stream before writing, this would never finish.
      int batches = 40;
      try (ArrowReader trickle = new Generated(client.allocator(), batches * 1000L, 1000, 64) {
        @Override
        protected void beforeBatch(int index) throws IOException {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (consumed.get() < index - 4) {
            if (System.nanoTime() > deadline) {
              throw new IOException("the server pulled " + consumed.get() + " batches while the client offered "
                  + index + ": it is buffering the stream");
            }
            Thread.onSpinWait();
          }
        }
      }) {
        assertThat(client.ingest("trickle", trickle, FlightTestClient.create(), Map.of())).isEqualTo(batches * 1000L);
      }
      assertThat(consumed.get()).isEqualTo(batches);
      TableRegistration before = server.server().metaStore().get("trickle").orElseThrow();

      // A failure mid-stream commits nothing: the client sends 5 batches, then reports an error on the stream
      // (what a client does when its source breaks); the registry and the rows are unchanged.
      stageFailures.set(0);
      int pulledBefore = consumed.get();
      Throwable failed = catchThrowable(() -> brokenIngest(client, "trickle", 5,
          () -> {
            try {
              Poll.until(java.time.Duration.ofSeconds(60), "the server pulling the stream",
                  () -> consumed.get() >= pulledBefore + 2);
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (stageFailures.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(stageFailures.get()).as("the server's writer saw the stream fail").isEqualTo(1);
      assertThat(failed).isNotNull();
      assertThat(server.server().metaStore().get("trickle").orElseThrow()).isEqualTo(before);
      assertThat(client.count("trickle")).isEqualTo(batches * 1000L);
    }
  }

  @Test
  void ingestReadsAndValidatesTheNextBatchWhileLanceWritesTheCurrentOne() throws Exception {
    // Lance asks for a batch only when it has encoded the one before: the server reads (and validates) the next
    // batch meanwhile. Seen from inside the writer: while it holds batch 1, batch 2's refusal (its payload is not
    // UTF-8) is already known to the ingest stream.
    AtomicReference<String> whileHoldingFirst = new AtomicReference<>("the writer never held a batch");
    try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.wrapEngine(e -> new ForwardingTableEngine(e) {
          @Override
          public StagedData stage(String location, ArrowReader data) {
            return delegate.stage(location, new Watched(data, batch -> {
              if (batch == 1) {
                whileHoldingFirst.set(failureKnownWithin(data, java.time.Duration.ofSeconds(20)));
              }
            }));
          }
        }));
        FlightTestClient client = server.client()) {
      Throwable failed;
      try (Generated source = new Generated(client.allocator(), 200, 100, 16) {
        @Override
        public boolean loadNextBatch() throws IOException {
          boolean loaded = super.loadNextBatch();
          if (loaded && getVectorSchemaRoot().getVector(0).getObject(0).equals(100L)) {
            ((VarCharVector) getVectorSchemaRoot().getVector(1)).setSafe(7, new byte[] {'o', (byte) 0xff});
          }
          return loaded;
        }
      }) {
        failed = catchThrowable(() -> client.ingest("ahead", source, FlightTestClient.create(), Map.of()));
      }
      assertThat(whileHoldingFirst.get()).isEqualTo("known");
      assertThat(Status.code(failed)).isEqualTo("INVALID_ARGUMENT");
      assertThat(failed).hasMessageContaining("batch 2").hasMessageContaining("not UTF-8");
      assertThat(server.server().metaStore().get("ahead")).isEmpty();
    }
  }

  /** "known" once {@code data} (the ingest stream's reader) reports a failure, within {@code wait}; else why not. */
  private static String failureKnownWithin(ArrowReader data, java.time.Duration wait) {
    if (!(data instanceof dev.lake.metasrv.ReportsFailure stream)) {
      return "the stream does not report failures: " + data.getClass().getName();
    }
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      if (stream.failure().isPresent()) {
        return "known";
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return "interrupted";
      }
    }
    return "not known after " + wait + " while the writer held batch 1: the next batch is read only when asked for";
  }

  /**
   * Appends through a raw DoPut: {@code batches} batches of (id, payload), then an error reported on the stream.
   * Returns when the server answers.
   */
  private static void brokenIngest(FlightTestClient client, String table, int batches, Runnable beforeError)
      throws Exception {
    var command = org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.newBuilder()
        .setTable(table).setTableDefinitionOptions(FlightTestClient.append()).build();
    var descriptor = org.apache.arrow.flight.FlightDescriptor.command(
        com.google.protobuf.Any.pack(command).toByteArray());
    try (Generated source = new Generated(client.allocator(), 100, 100, 16)) {
      source.loadNextBatch();
      VectorSchemaRoot root = source.getVectorSchemaRoot();
      var result = new org.apache.arrow.flight.SyncPutListener();
      var put = client.flight().startPut(descriptor, root, result, client.auth());
      for (int i = 0; i < batches; i++) {
        put.putNext();
      }
      beforeError.run(); // the server is writing this stream when it breaks
      put.error(new IllegalStateException("the client's source broke"));
      put.getResult();
    }
  }

  /** Generates (id, payload) batches on demand: nothing is materialized beyond the batch being sent. */
  static class Generated extends ArrowReader {
    private final long rows;
    private final int batchRows;
    private final byte[] payload;
    private long produced;
    private int index;

    Generated(BufferAllocator allocator, long rows, int batchRows, int payloadBytes) {
      super(allocator);
      this.rows = rows;
      this.batchRows = batchRows;
      this.payload = "x".repeat(payloadBytes).getBytes(StandardCharsets.UTF_8);
    }

    protected void beforeBatch(int index) throws IOException {}

    @Override
    public boolean loadNextBatch() throws IOException {
      if (produced >= rows) {
        return false;
      }
      beforeBatch(index++);
      VectorSchemaRoot root = getVectorSchemaRoot();
      int n = (int) Math.min(batchRows, rows - produced);
      BigIntVector id = (BigIntVector) root.getVector(0);
      VarCharVector text = (VarCharVector) root.getVector(1);
      id.allocateNew(n);
      text.allocateNew((long) n * payload.length, n);
      for (int i = 0; i < n; i++) {
        id.set(i, produced + i);
        text.setSafe(i, payload);
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
      return WIDE;
    }
  }

  /** Passes the ingest stream's batches to Lance, telling {@code afterBatch} each one's number (from 1) as it goes. */
  static final class Watched extends ArrowReader {
    private final ArrowReader source;
    private final java.util.function.IntConsumer afterBatch;
    private int batches;

    Watched(ArrowReader source, java.util.function.IntConsumer afterBatch) {
      super(rootAllocatorOf(source));
      this.source = source;
      this.afterBatch = afterBatch;
    }

    static BufferAllocator rootAllocatorOf(ArrowReader source) {
      try {
        return source.getVectorSchemaRoot().getFieldVectors().get(0).getAllocator();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
      return source.getVectorSchemaRoot();
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      boolean loaded = source.loadNextBatch();
      if (loaded) {
        afterBatch.accept(++batches);
      }
      return loaded;
    }

    @Override
    public long bytesRead() {
      return source.bytesRead();
    }

    @Override
    protected void closeReadSource() throws IOException {
      source.close();
    }

    @Override
    protected Schema readSchema() throws IOException {
      return source.getVectorSchemaRoot().getSchema();
    }
  }
}
