package dev.lake.it.support;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.flight.grpc.StatusMapper;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowBuffer;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Raw Flight DoPut streams, frame by frame, for hostile-input tests: any bytes can be sent as a message (the method is
 * called with an identity marshaller), so malformed protobuf framing, IPC headers and bodies reach the server exactly
 * as written. Messages are built from real Arrow metadata ({@link MessageSerializer}) and then cut, swapped or
 * corrupted. Authenticates with HTTP Basic on every call (lake accepts it on any call).
 */
public final class RawFlight implements AutoCloseable {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  };
  public static final MethodDescriptor<byte[], byte[]> DO_PUT = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
      .setFullMethodName("arrow.flight.protocol.FlightService/DoPut")
      .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

  private final ManagedChannel channel;

  public RawFlight(int port) {
    this.channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  /** The outcome of one raw call: its status code, the {@code lake-code} trailer, the message, and how long. */
  public record Answer(String code, String lakeCode, String message, long millis) {
    public boolean timedOut() {
      return code.equals("CLIENT_TIMEOUT");
    }
  }

  /** Sends {@code messages} on one DoPut (then half-closes when {@code finish}) and waits for the answer. */
  public Answer put(String user, String password, List<byte[]> messages, boolean finish, Duration wait) {
    return put(user == null ? null : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
        .getBytes(StandardCharsets.UTF_8)), messages, finish, wait);
  }

  /**
   * {@link #put(String, String, List, boolean, Duration)} with the {@code authorization} header as given (a
   * {@code Bearer} token: no login per call, so the failed-login throttle of the caller's address never applies).
   */
  public Answer put(String authorization, List<byte[]> messages, boolean finish, Duration wait) {
    Metadata headers = new Metadata();
    if (authorization != null) {
      headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), authorization);
    }
    ClientCall<byte[], byte[]> call = channel.newCall(DO_PUT, CallOptions.DEFAULT);
    call = io.grpc.ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers))
        .newCall(DO_PUT, CallOptions.DEFAULT);
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    long start = System.nanoTime();
    StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(call, new StreamObserver<>() {
      @Override
      public void onNext(byte[] value) {}

      @Override
      public void onError(Throwable t) {
        Status s = Status.fromThrowable(t);
        Metadata trailers = t instanceof StatusRuntimeException e ? e.getTrailers() : null;
        String lake = trailers == null ? null : trailers.get(Metadata.Key.of(StatusMapper.CODE_KEY,
            Metadata.ASCII_STRING_MARSHALLER));
        answer.complete(new Answer(s.getCode().name(), lake, String.valueOf(s.getDescription()),
            (System.nanoTime() - start) / 1_000_000));
      }

      @Override
      public void onCompleted() {
        answer.complete(new Answer("OK", "OK", "", (System.nanoTime() - start) / 1_000_000));
      }
    });
    try {
      for (byte[] m : messages) {
        requests.onNext(m);
      }
      if (finish) {
        requests.onCompleted();
      }
    } catch (RuntimeException e) {
      // the server may have answered and closed the call already
    }
    try {
      return answer.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      call.cancel("the test gave up waiting", null);
      return new Answer("CLIENT_TIMEOUT", null, "no answer within " + wait, wait.toMillis());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      if (!answer.isDone()) {
        requests.onError(Status.CANCELLED.asRuntimeException());
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }

  // ---- building messages ----

  public static Flight.FlightDescriptor ingest(String table, CommandStatementIngest.TableDefinitionOptions options) {
    CommandStatementIngest command = CommandStatementIngest.newBuilder().setTable(table)
        .setTableDefinitionOptions(options).build();
    return Flight.FlightDescriptor.newBuilder().setType(Flight.FlightDescriptor.DescriptorType.CMD)
        .setCmd(ByteString.copyFrom(Any.pack(command).toByteArray())).build();
  }

  /** The schema message, with the descriptor when given (the first message of a well-formed DoPut). */
  public static Flight.FlightData schema(Schema schema, Flight.FlightDescriptor descriptor) {
    Flight.FlightData.Builder b = Flight.FlightData.newBuilder()
        .setDataHeader(ByteString.copyFrom(MessageSerializer.serializeMetadata(schema, IpcOption.DEFAULT)));
    if (descriptor != null) {
      b.setFlightDescriptor(descriptor);
    }
    return b.build();
  }

  /** A message that carries only the descriptor. */
  public static Flight.FlightData descriptorOnly(Flight.FlightDescriptor descriptor) {
    return Flight.FlightData.newBuilder().setFlightDescriptor(descriptor).build();
  }

  /** The record batch message of {@code root}'s current rows. */
  public static Flight.FlightData batch(VectorSchemaRoot root) {
    return batch(root, (body, layout) -> { });
  }

  /** Changes a batch's body bytes; {@code layout} says where each buffer starts. */
  @FunctionalInterface
  public interface BodyEdit {
    void edit(byte[] body, List<ArrowBuffer> layout);
  }

  /** The record batch message of {@code root}'s current rows, its body changed by {@code edit}. */
  public static Flight.FlightData batch(VectorSchemaRoot root, BodyEdit edit) {
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      ByteBuffer header = MessageSerializer.serializeMetadata(batch, IpcOption.DEFAULT);
      byte[] body = body(batch.getBuffers(), batch.getBuffersLayout(), batch.computeBodyLength());
      edit.edit(body, batch.getBuffersLayout());
      return Flight.FlightData.newBuilder().setDataHeader(ByteString.copyFrom(header))
          .setDataBody(ByteString.copyFrom(body)).build();
    }
  }

  /** A dictionary batch message for dictionary {@code id} with {@code root}'s one column as its values. */
  public static Flight.FlightData dictionary(long id, VectorSchemaRoot values) {
    try (ArrowDictionaryBatch batch = new ArrowDictionaryBatch(id, new VectorUnloader(values).getRecordBatch(), false)) {
      ArrowRecordBatch data = batch.getDictionary();
      ByteBuffer header = MessageSerializer.serializeMetadata(batch, IpcOption.DEFAULT);
      return Flight.FlightData.newBuilder().setDataHeader(ByteString.copyFrom(header))
          .setDataBody(ByteString.copyFrom(body(data.getBuffers(), data.getBuffersLayout(),
              data.computeBodyLength()))).build();
    }
  }

  private static byte[] body(List<ArrowBuf> buffers, List<ArrowBuffer> layout, long length) {
    byte[] out = new byte[(int) length];
    for (int i = 0; i < buffers.size(); i++) {
      ArrowBuf buf = buffers.get(i);
      ArrowBuffer at = layout.get(i);
      buf.getBytes(0, out, (int) at.getOffset(), (int) Math.min(at.getSize(), buf.readableBytes()));
    }
    return out;
  }

  public static List<byte[]> bytes(Flight.FlightData... messages) {
    List<byte[]> out = new ArrayList<>();
    for (Flight.FlightData m : messages) {
      out.add(m.toByteArray());
    }
    return out;
  }

  /** {@code body} cut to {@code keep} bytes, the header unchanged (it still declares the full length). */
  public static Flight.FlightData truncated(Flight.FlightData message, int keep) {
    return message.toBuilder().setDataBody(message.getDataBody().substring(0, keep)).build();
  }

  /** Random bytes that make no protobuf (length-delimited fields with impossible lengths). */
  public static byte[] garbage(long seed, int length) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < length; i++) {
      out.write(random.nextInt(256));
    }
    return out.toByteArray();
  }
}
