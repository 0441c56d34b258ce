package dev.lake.flight.streams;

import dev.lake.registry.error.LakeException;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;
import org.apache.arrow.flight.LakeFlightMessages;
import org.apache.arrow.flight.LakeFlightMessages.Kind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two interceptors that guard every DoPut. {@link #raw()} sits where messages are still bytes (the Flight
 * service's messages are parsed inside the call chain, see {@link FlightServiceGuard}): it opens the call's
 * {@link StreamWatch}, makes the call close at most once, and refuses a message Arrow cannot even parse.
 * {@link #parsed()} sits right above Arrow's handler and applies {@link MessageChecks} to every parsed message, and
 * ends a stream that finishes before its schema. A refusal answers INVALID_ARGUMENT through the one error mapping at
 * once, drops the rest of the stream, and frees the reader waiting on the watch.
 */
public final class DoPutGuard {
  private static final Logger LOG = LoggerFactory.getLogger(DoPutGuard.class);
  private static final String DO_PUT = "arrow.flight.protocol.FlightService/DoPut";

  private final Function<Throwable, RuntimeException> toStatus;

  /** @param toStatus the one error mapping (a {@link io.grpc.StatusRuntimeException} with the lake-code trailer) */
  public DoPutGuard(Function<Throwable, RuntimeException> toStatus) {
    this.toStatus = toStatus;
  }

  static boolean isDoPut(ServerCall<?, ?> call) {
    return DO_PUT.equals(call.getMethodDescriptor().getFullMethodName());
  }

  /** The outer interceptor: watch, once-only close, refusal of unparsable messages. */
  public ServerInterceptor raw() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        if (!isDoPut(call)) {
          return next.startCall(call, headers);
        }
        OnceClosingCall<Q, R> once = new OnceClosingCall<>(call);
        StreamWatch watch = new StreamWatch(failure -> once.refuse(toStatus.apply(failure)));
        Context context = Context.current().withValue(StreamWatch.CONTEXT, watch);
        ServerCall.Listener<Q> inner = Contexts.interceptCall(context, once, headers, next);
        return new SimpleForwardingServerCallListener<>(inner) {
          @Override
          public void onMessage(Q message) {
            if (watch.failure().isPresent()) {
              closeQuietly(message);
              return;
            }
            if (message instanceof InputStream in && !framingFits(in)) {
              closeQuietly(message);
              watch.refuse(new LakeException(dev.lake.registry.error.ErrorCode.INVALID_ARGUMENT,
                  "the ingest stream was refused: a message is not a well-formed Flight message (a field declares "
                      + "more bytes than the message holds); nothing was written"));
              return;
            }
            try {
              super.onMessage(message);
            } catch (RuntimeException e) {
              closeQuietly(message);
              LOG.debug("refused an unreadable DoPut message error={}", String.valueOf(e));
              watch.refuse(new LakeException(dev.lake.registry.error.ErrorCode.INVALID_ARGUMENT,
                  "the ingest stream was refused: a message is not a well-formed Flight message (its protobuf "
                      + "framing or IPC header does not parse); nothing was written"));
            }
          }
        };
      }
    };
  }

  /** The inner interceptor: {@link MessageChecks} on every parsed message; the end of a stream without schema. */
  public ServerInterceptor parsed() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        StreamWatch watch = StreamWatch.CONTEXT.get();
        if (!isDoPut(call) || watch == null) {
          return next.startCall(call, headers);
        }
        MessageChecks checks = new MessageChecks();
        return new SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
          private boolean schema;

          @Override
          public void onMessage(Q message) {
            if (watch.failure().isPresent() || !LakeFlightMessages.isMessage(message)) {
              LakeFlightMessages.close(message);
              return;
            }
            boolean descriptor = LakeFlightMessages.hasDescriptor(message);
            Kind kind;
            try {
              kind = checks.check(message);
            } catch (LakeException refused) {
              LakeFlightMessages.close(message);
              watch.refuse(refused);
              return;
            }
            super.onMessage(message); // Arrow's reader has it now
            if (descriptor) {
              watch.descriptorArrived();
            }
            if (kind == Kind.SCHEMA) {
              schema = true;
              watch.schemaArrived();
            }
          }

          @Override
          public void onHalfClose() {
            if (!schema && watch.failure().isEmpty()) {
              watch.refuse(new LakeException(dev.lake.registry.error.ErrorCode.INVALID_ARGUMENT,
                  "the ingest stream was refused: it ended before its schema arrived; nothing was written"));
            }
            super.onHalfClose();
          }

          @Override
          public void onCancel() {
            watch.fail(new LakeException(dev.lake.registry.error.ErrorCode.CANCELLED,
                "the client cancelled the stream; nothing was written"));
            super.onCancel();
          }
        };
      }
    };
  }

  /**
   * Whether every length-delimited field of the protobuf message in {@code in} fits in the bytes it holds. Arrow's
   * parser allocates a field's declared length before reading it: 400 bytes of garbage declaring a 2 GB body cost a
   * 2 GB allocation (and its zeroing) before the stream was found short. Reads only tags and lengths (the body is
   * skipped), then rewinds; a stream that cannot rewind is left to Arrow's parser.
   */
  static boolean framingFits(InputStream in) {
    if (!in.markSupported()) {
      return true;
    }
    try {
      long size = in.available();
      in.mark(Integer.MAX_VALUE);
      try {
        com.google.protobuf.CodedInputStream c = com.google.protobuf.CodedInputStream.newInstance(in);
        c.setSizeLimit(Integer.MAX_VALUE);
        while (!c.isAtEnd()) {
          int tag = c.readTag();
          if (com.google.protobuf.WireFormat.getTagWireType(tag)
              == com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            int length = c.readRawVarint32();
            if (length < 0 || length > size - c.getTotalBytesRead()) {
              return false;
            }
            c.skipRawBytes(length);
          } else if (!c.skipField(tag)) {
            return true;
          }
        }
        return true;
      } finally {
        in.reset();
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static void closeQuietly(Object message) {
    if (message instanceof InputStream in) {
      try {
        in.close();
      } catch (java.io.IOException ignored) {
        // nothing held
      }
    } else if (LakeFlightMessages.isMessage(message)) {
      LakeFlightMessages.close(message);
    }
  }

  /** A call that is closed once: by a refusal, or by the producer's answer, whichever comes first. */
  static final class OnceClosingCall<Q, R> extends SimpleForwardingServerCall<Q, R> {
    private boolean closed;

    OnceClosingCall(ServerCall<Q, R> call) {
      super(call);
    }

    void refuse(RuntimeException status) {
      Status s = Status.fromThrowable(status);
      Metadata trailers = Status.trailersFromThrowable(status);
      close(s, trailers == null ? new Metadata() : trailers);
    }

    @Override
    public synchronized void close(Status status, Metadata trailers) {
      if (closed) {
        return;
      }
      closed = true;
      super.close(status, trailers);
    }

    @Override
    public synchronized void sendMessage(R message) {
      if (!closed) {
        super.sendMessage(message);
      }
    }
  }
}
