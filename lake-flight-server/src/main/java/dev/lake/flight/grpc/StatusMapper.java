package dev.lake.flight.grpc;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.grpc.StatusUtils;
import org.apache.arrow.memory.OutOfMemoryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become status codes (docs/api.md's status table). Every exception a client can
 * receive states its status ({@link CodedFailure}); nothing here reads a message's text to choose one. Arrow's
 * allocator limit ({@link OutOfMemoryException}, anywhere in the cause chain) is RESOURCE_EXHAUSTED. Anything else is
 * a bug in lake: INTERNAL with an error id, and the stack trace goes to the log under that id.
 *
 * <p>The answer is a gRPC status with the code (Arrow's own enum lacks ABORTED and FAILED_PRECONDITION, so the exact
 * code is also sent in the {@value #CODE_KEY} trailer, which Arrow clients read from {@code CallStatus.metadata()};
 * {@link LakeCodeTrailers} adds it to answers that never pass through here). Messages are the exception's, truncated
 * (gRPC refuses oversized trailers) and, as a last line of defence, cleaned of anything that looks like a server path,
 * a storage URI, a Java class name or a stack frame — the sources are meant never to put one there.
 */
public final class StatusMapper {
  public static final String CODE_KEY = "lake-code";
  public static final Metadata.Key<String> CODE = Metadata.Key.of(CODE_KEY, Metadata.ASCII_STRING_MARSHALLER);
  private static final Logger LOG = LoggerFactory.getLogger(StatusMapper.class);
  static final int MAX_MESSAGE = 2000;

  /** Storage URIs (s3://bucket/prefix, file:/path). */
  private static final Pattern URI = Pattern.compile("\\b(?:s3a?|gs|az|file|hdfs)://?[^\\s'\",;()]*");
  /** Absolute paths of two or more segments that do not continue a word or a URI. */
  private static final Pattern PATH = Pattern.compile("(?<![\\w:/.~-])/(?:[\\w.@+=~-]+/)+[\\w.@+=~-]*");
  /** Stack frames ("at org.x.Y.m(Y.java:12)") and fully qualified Java class names. */
  private static final Pattern FRAME = Pattern.compile("\\s*\\bat [\\w$.]+\\([\\w$.]*(?::\\d+)?\\)");
  private static final Pattern CLASS_NAME = Pattern.compile(
      "\\b(?:java|javax|jdk|sun|org|com|io|dev|net|software)\\.(?:[a-z_][\\w]*\\.)+[A-Z][\\w$]*");

  private StatusMapper() {}

  public static RuntimeException toStatus(Throwable t) {
    Throwable e = unwrap(t);
    if (e instanceof StatusRuntimeException s) {
      return withCode(s);
    }
    if (e instanceof FlightRuntimeException f) {
      // Arrow's own codes (e.g. UNAUTHORIZED) get the design's name in the trailer too (PERMISSION_DENIED).
      return withCode((StatusRuntimeException) StatusUtils.toGrpcException(f));
    }
    Throwable oom = memoryLimit(e);
    ErrorCode code = oom != null ? ErrorCode.RESOURCE_EXHAUSTED : errorCode(e);
    String message;
    if (code == ErrorCode.INTERNAL) {
      String id = UUID.randomUUID().toString();
      LOG.error("internal error errorId={}", id, e);
      message = "internal error (error id " + id + "); the server log has the details";
    } else if (oom != null) {
      message = clean("the request exceeded its memory limit (query.memory-limit / ingest.memory-limit); it was "
          + "stopped and nothing else was affected: " + detail(oom));
    } else {
      message = clean(message(e, code));
    }
    Metadata trailers = new Metadata();
    trailers.put(CODE, code.name());
    return Status.fromCode(Status.Code.valueOf(code.name())).withDescription(message).asRuntimeException(trailers);
  }

  /** The outcome label of a status {@link #toStatus} made: its code in lower case ({@code invalid_argument}). */
  public static String outcome(RuntimeException status) {
    return Status.fromThrowable(status).getCode().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The status a failure states; a throwable that states none is a bug (INTERNAL). */
  static ErrorCode errorCode(Throwable e) {
    return e instanceof CodedFailure c ? c.errorCode() : ErrorCode.INTERNAL;
  }

  /** The gRPC code of {@link #errorCode}, or null for INTERNAL (a bug). */
  public static Status.Code codeOf(Throwable e) {
    ErrorCode code = errorCode(e);
    return code == ErrorCode.INTERNAL ? null : Status.Code.valueOf(code.name());
  }

  /** {@code s} with the {@value #CODE_KEY} trailer naming its code, and a cleaned description. */
  static StatusRuntimeException withCode(StatusRuntimeException s) {
    Metadata trailers = s.getTrailers() == null ? new Metadata() : s.getTrailers();
    trailers.removeAll(CODE);
    trailers.put(CODE, s.getStatus().getCode().name());
    Status status = s.getStatus();
    if (status.getDescription() != null) {
      status = status.withDescription(clean(status.getDescription()));
    }
    return status.asRuntimeException(trailers);
  }

  private static String message(Throwable e, ErrorCode code) {
    String m = detail(e);
    if (code == ErrorCode.UNAVAILABLE && !m.endsWith("(retry)")) {
      m = m + " (retry)";
    }
    return m;
  }

  private static String detail(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? "the request failed" : m;
  }

  public static String truncate(String m) {
    return m.length() <= MAX_MESSAGE ? m : m.substring(0, MAX_MESSAGE) + "... (truncated)";
  }

  /** Simple Java exception type names ("IOException: ") left in a message. */
  private static final Pattern TYPE_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9]*(?:Exception|Error)\\b:?\\s*");

  /** {@code message} without Java exception type names (a cause's message quoted in a client message). */
  public static String withoutTypeNames(String message) {
    return TYPE_NAME.matcher(CLASS_NAME.matcher(message).replaceAll("")).replaceAll("");
  }

  /** The last line of defence: a message without server paths, storage URIs, class names or stack frames. */
  public static String clean(String message) {
    String m = FRAME.matcher(message).replaceAll("");
    m = URI.matcher(m).replaceAll("<storage>");
    m = PATH.matcher(m).replaceAll("<path>");
    m = CLASS_NAME.matcher(m).replaceAll(r -> {
      String name = r.group();
      return name.substring(name.lastIndexOf('.') + 1);
    });
    return truncate(TYPE_NAME.matcher(m).replaceAll(""));
  }

  /** An Arrow allocator limit anywhere in the cause chain (engines and readers wrap it). */
  private static Throwable memoryLimit(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof OutOfMemoryException) {
        return c;
      }
    }
    return null;
  }

  private static Throwable unwrap(Throwable t) {
    Throwable e = t;
    while ((e instanceof java.util.concurrent.CompletionException
        || e instanceof java.util.concurrent.ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }
}
