package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.RawFlight;
import dev.lake.it.support.RawFlight.Answer;
import dev.lake.registry.TableRegistration;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowBuffer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed DoPut streams, sent frame by frame: each is refused with INVALID_ARGUMENT through lake's one error
 * mapping (the lake-code trailer says so), promptly, and writes nothing; streams that never send their first
 * messages are closed at their deadline and give their threads back.
 */
class HostileStreamsTest {
  private static final Schema SCHEMA = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  @TempDir
  Path dataDir;
  private ConfiguredServer server;
  private RawFlight raw;
  private BufferAllocator allocator;

  @BeforeEach
  void start() throws Exception {
    server = ConfiguredServer.start(dataDir, List.of(new TestUser("walt", "walt-pw", "writer"),
        new TestUser("rita", "rita-pw", "reader"), new TestUser("ada", "ada-pw", "admin")),
        Map.of("ingest.first-message-timeout", "1s", "ingest.max-streams-per-user", "64"), b -> { });
    raw = new RawFlight(server.port());
    allocator = new RootAllocator();
  }

  @AfterEach
  void stop() throws Exception {
    raw.close();
    allocator.close();
    server.close();
  }

  private VectorSchemaRoot rows(int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    BigIntVector id = (BigIntVector) root.getVector(0);
    VarCharVector name = (VarCharVector) root.getVector(1);
    id.allocateNew(n);
    name.allocateNew(n);
    for (int i = 0; i < n; i++) {
      id.set(i, i);
      name.setSafe(i, ("row-" + i).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(n);
    return root;
  }

  private Answer put(String user, List<byte[]> messages) {
    return raw.put(user, user + "-pw", messages, true, Duration.ofSeconds(10));
  }

  /** The malformed streams of the acceptance test, each an append to {@code t}. */
  private Map<String, List<byte[]>> malformedStreams() {
    Flight.FlightDescriptor append = RawFlight.ingest("t", FlightTestClient.append());
    Flight.FlightData schema = RawFlight.schema(SCHEMA, append);
    Map<String, List<byte[]>> cases = new LinkedHashMap<>();
    try (VectorSchemaRoot root = rows(100)) {
      Flight.FlightData good = RawFlight.batch(root);
      cases.put("truncated body", RawFlight.bytes(schema, RawFlight.truncated(good, good.getDataBody().size() / 3)));
      cases.put("no body", RawFlight.bytes(schema, good.toBuilder().clearDataBody().build()));
      cases.put("garbage header", RawFlight.bytes(schema, good.toBuilder()
          .setDataHeader(ByteString.copyFrom(RawFlight.garbage(7, 96))).build()));
      cases.put("batch before schema", RawFlight.bytes(good.toBuilder().setFlightDescriptor(append).build(), good));
      cases.put("descriptor, then a batch before the schema", RawFlight.bytes(RawFlight.descriptorOnly(append),
          good));
      cases.put("second schema", RawFlight.bytes(schema, good, RawFlight.schema(SCHEMA, null)));
      cases.put("offsets out of bounds", RawFlight.bytes(schema, RawFlight.batch(root,
          (body, layout) -> putInt(body, layout.get(3), 100 * 4, 0x7fff0000))));
      cases.put("offsets going backwards", RawFlight.bytes(schema, RawFlight.batch(root,
          (body, layout) -> putInt(body, layout.get(3), 50 * 4, 3))));
      cases.put("invalid UTF-8", RawFlight.bytes(schema, RawFlight.batch(root,
          (body, layout) -> body[(int) layout.get(4).getOffset() + 1] = (byte) 0xff)));
      // "row-0" then "row-1" become "row-\xc3" and "\xa9ow-1": the bytes together read "row-éow-1", neither value
      // is UTF-8 on its own
      cases.put("a value starting inside a UTF-8 sequence", RawFlight.bytes(schema, RawFlight.batch(root,
          (body, layout) -> {
            body[(int) layout.get(4).getOffset() + 4] = (byte) 0xc3;
            body[(int) layout.get(4).getOffset() + 5] = (byte) 0xa9;
          })));
      // seed 20261202, request 16379: one flipped bit made the header declare 134,217,733 rows for columns of 5
      cases.put("a header declaring more rows than its columns hold", RawFlight.bytes(schema, good.toBuilder()
          .setDataHeader(ByteString.copyFrom(rowCountFlipped(good.getDataHeader().toByteArray()))).build()));
      // seed 20261202, request 5272: garbage whose body field declares ~2 GB made Arrow allocate that much first
      List<byte[]> huge = new ArrayList<>(RawFlight.bytes(schema));
      huge.add(declaringBody(2_000_000_000));
      cases.put("a body field declaring 2 GB in a 20-byte message", huge);
      try (VectorSchemaRoot values = VectorSchemaRoot.create(new Schema(List.of(
          Field.nullable("v", ArrowType.Utf8.INSTANCE))), allocator)) {
        ((VarCharVector) values.getVector(0)).setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
        values.setRowCount(1);
        cases.put("dictionary batch for an unknown id", RawFlight.bytes(schema, RawFlight.dictionary(7, values),
            good));
      }
    }
    return cases;
  }

  /** {@code header} with one bit flipped that changes the record batch's row count and nothing else. */
  private static byte[] rowCountFlipped(byte[] header) {
    org.apache.arrow.flatbuf.RecordBatch good = recordBatch(header);
    for (int at = 0; at < header.length; at++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] h = header.clone();
        h[at] ^= (byte) (1 << bit);
        try {
          org.apache.arrow.flatbuf.RecordBatch rb = recordBatch(h);
          if (rb.length() > good.length() && rb.nodesLength() == good.nodesLength()
              && rb.nodes(0).length() == good.nodes(0).length() && rb.nodes(1).length() == good.nodes(1).length()) {
            return h;
          }
        } catch (RuntimeException e) {
          // that flip broke the flatbuffer: try the next
        }
      }
    }
    throw new IllegalStateException("no single bit flips the row count");
  }

  private static org.apache.arrow.flatbuf.RecordBatch recordBatch(byte[] header) {
    org.apache.arrow.flatbuf.Message m = org.apache.arrow.flatbuf.Message.getRootAsMessage(ByteBuffer.wrap(header));
    return (org.apache.arrow.flatbuf.RecordBatch) m.header(new org.apache.arrow.flatbuf.RecordBatch());
  }

  /** A FlightData message whose data_body (field 1000) declares {@code declared} bytes and holds 10. */
  private static byte[] declaringBody(int declared) {
    try {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      com.google.protobuf.CodedOutputStream c = com.google.protobuf.CodedOutputStream.newInstance(out);
      c.writeTag(1000, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
      c.writeUInt32NoTag(declared);
      c.writeRawBytes(new byte[10]);
      c.flush();
      return out.toByteArray();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes {@code value} little-endian at {@code at} bytes into {@code buffer} of the body. */
  private static void putInt(byte[] body, ArrowBuffer buffer, int at, int value) {
    ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN).putInt((int) buffer.getOffset() + at, value);
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void malformedIngestStreamsAreRefusedAndWriteNothing() throws Exception {
    try (FlightTestClient client = server.client("walt", "walt-pw"); VectorSchemaRoot first = rows(5)) {
      client.ingest("t", first, FlightTestClient.create());
      TableRegistration before = server.server().metaStore().get("t").orElseThrow();
      List<String> wrong = new ArrayList<>();
      for (Map.Entry<String, List<byte[]>> c : malformedStreams().entrySet()) {
        Answer answer = put("walt", c.getValue());
        if (!answer.code().equals("INVALID_ARGUMENT") || !"INVALID_ARGUMENT".equals(answer.lakeCode())
            || answer.millis() > 2_000) {
          wrong.add(c.getKey() + ": " + answer);
        }
        assertThat(server.server().metaStore().get("t").orElseThrow().version()).as(c.getKey() + " wrote nothing")
            .isEqualTo(before.version());
      }
      assertThat(wrong).as("streams not refused with INVALID_ARGUMENT within 2 s").isEmpty();
      assertThat(client.count("t")).isEqualTo(5);

      // the next well-formed stream still works
      try (VectorSchemaRoot more = rows(3)) {
        Flight.FlightDescriptor append = RawFlight.ingest("t", FlightTestClient.append());
        Answer ok = put("walt", RawFlight.bytes(RawFlight.schema(SCHEMA, append), RawFlight.batch(more)));
        assertThat(ok.code()).as(ok.toString()).isEqualTo("OK");
      }
      assertThat(client.count("t")).isEqualTo(8);
    }
  }

  @Test
  @Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void clientStreamFailuresMapThroughOneErrorMapping() throws Exception {
    try (FlightTestClient client = server.client("walt", "walt-pw"); VectorSchemaRoot first = rows(5)) {
      client.ingest("t", first, FlightTestClient.create());
    }
    Map<String, Answer> answers = new LinkedHashMap<>();
    for (long seed = 1; seed <= 5; seed++) {
      answers.put("protobuf garbage " + seed, put("walt", List.of(RawFlight.garbage(seed, 64 + (int) seed * 40))));
    }
    Flight.FlightDescriptor append = RawFlight.ingest("t", FlightTestClient.append());
    answers.put("garbage schema header", put("walt", RawFlight.bytes(Flight.FlightData.newBuilder()
        .setFlightDescriptor(append).setDataHeader(ByteString.copyFrom(RawFlight.garbage(3, 40))).build())));
    answers.put("descriptor that is not a command", put("walt", RawFlight.bytes(RawFlight.schema(SCHEMA,
        Flight.FlightDescriptor.newBuilder().setType(Flight.FlightDescriptor.DescriptorType.PATH)
            .addPath("/etc/passwd").build()))));
    answers.put("command that is garbage", put("walt", RawFlight.bytes(RawFlight.schema(SCHEMA,
        Flight.FlightDescriptor.newBuilder().setType(Flight.FlightDescriptor.DescriptorType.CMD)
            .setCmd(ByteString.copyFrom(RawFlight.garbage(9, 30))).build()))));
    answers.put("no credentials", raw.put(null, null, RawFlight.bytes(RawFlight.schema(SCHEMA, append)), true,
        Duration.ofSeconds(10)));
    answers.put("a reader's ingest", put("rita", RawFlight.bytes(RawFlight.schema(SCHEMA, append))));
    answers.put("ends before its schema", put("walt", RawFlight.bytes(RawFlight.descriptorOnly(append))));
    answers.put("ends before anything", put("walt", List.of()));
    answers.putAll(answersOf(malformedStreams()));
    List<String> wrong = new ArrayList<>();
    answers.forEach((name, a) -> {
      if (a.lakeCode() == null || !a.lakeCode().equals(a.code()) || a.code().equals("UNKNOWN")
          || a.code().equals("INTERNAL") || a.code().equals("OK") || a.timedOut()
          || a.message().contains("Application error")) {
        wrong.add(name + ": " + a);
      }
    });
    assertThat(wrong).as("answers that did not come through lake's error mapping").isEmpty();
    assertThat(answers.get("no credentials").code()).isEqualTo("UNAUTHENTICATED");
    assertThat(answers.get("a reader's ingest").code()).isEqualTo("PERMISSION_DENIED");
    assertThat(answers.get("ends before its schema").code()).isEqualTo("INVALID_ARGUMENT");
  }

  private Map<String, Answer> answersOf(Map<String, List<byte[]>> streams) {
    Map<String, Answer> out = new LinkedHashMap<>();
    streams.forEach((name, messages) -> out.put(name, put("walt", messages)));
    return out;
  }

  @Test
  @Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void streamsWithoutFirstMessageAreClosed() throws Exception {
    int baseline = liveThreads();
    Flight.FlightDescriptor create = RawFlight.ingest("silent", FlightTestClient.create());
    ExecutorService clients = Executors.newFixedThreadPool(16);
    try {
      List<Future<Answer>> silent = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        boolean descriptorOnly = i % 2 == 1; // half send nothing at all, half a descriptor and then no schema
        String user = descriptorOnly ? "walt" : i % 4 == 0 ? "rita" : "walt";
        List<byte[]> messages = descriptorOnly ? RawFlight.bytes(RawFlight.descriptorOnly(create)) : List.of();
        silent.add(clients.submit(() -> raw.put(user, user + "-pw", messages, false, Duration.ofSeconds(60))));
      }
      List<String> wrong = new ArrayList<>();
      for (Future<Answer> f : silent) {
        Answer a = f.get();
        if (!a.code().equals("DEADLINE_EXCEEDED") || !"DEADLINE_EXCEEDED".equals(a.lakeCode())
            || !a.message().contains("ingest.first-message-timeout")) {
          wrong.add(a.toString());
        }
      }
      assertThat(wrong).as("silent streams not closed at their deadline").isEmpty();
    } finally {
      clients.shutdownNow();
    }
    assertThat(server.server().metaStore().get("silent")).isEmpty();
    // the parked server threads are gone: the count comes back to the baseline (bounded wait)
    long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    int now = liveThreads();
    while (now > baseline + 8 && System.nanoTime() < until) {
      Thread.sleep(250);
      now = liveThreads();
    }
    assertThat(now).as("live threads after the silent streams (baseline " + baseline + ")")
        .isLessThanOrEqualTo(baseline + 8);

    // the per-user limit of open streams: a user at the limit is refused at once, others are not affected
    try (ConfiguredServer limited = ConfiguredServer.start(dataDir.resolve("limited"),
        List.of(new TestUser("walt", "walt-pw", "writer"), new TestUser("ada", "ada-pw", "admin")),
        Map.of("ingest.first-message-timeout", "5s", "ingest.max-streams-per-user", "3"), b -> { });
        RawFlight rawLimited = new RawFlight(limited.port())) {
      ExecutorService holders = Executors.newFixedThreadPool(3);
      try {
        List<Future<Answer>> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          held.add(holders.submit(() -> rawLimited.put("walt", "walt-pw", List.of(), false,
              Duration.ofSeconds(30))));
        }
        Thread.sleep(1_000); // the three streams are open and waiting for their descriptors
        Answer fourth = rawLimited.put("walt", "walt-pw", List.of(), false, Duration.ofSeconds(30));
        assertThat(fourth.code()).as(fourth.toString()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(fourth.message()).contains("ingest.max-streams-per-user");
        assertThat(fourth.millis()).isLessThan(4_000);
        Answer other = rawLimited.put("ada", "ada-pw", List.of(), false, Duration.ofSeconds(30));
        assertThat(other.code()).as("another user is not limited by walt's streams").isEqualTo("DEADLINE_EXCEEDED");
        for (Future<Answer> f : held) {
          assertThat(f.get().code()).isEqualTo("DEADLINE_EXCEEDED");
        }
      } finally {
        holders.shutdownNow();
      }
    }
  }

  private static int liveThreads() {
    return ManagementFactory.getThreadMXBean().getThreadCount();
  }

}
