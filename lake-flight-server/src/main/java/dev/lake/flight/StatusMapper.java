package dev.lake.flight;

import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.ForeignCommitException;
import dev.lake.engine.IncompatibleDataException;
import dev.lake.engine.LocationExistsException;
import dev.lake.engine.StorageException;
import dev.lake.flight.limits.QueryCancelledException;
import dev.lake.flight.limits.QueryLimitException;
import dev.lake.flight.limits.IngestIdleException;
import dev.lake.flight.limits.QueryTimeoutException;
import dev.lake.flight.security.LocationNotAllowedException;
import dev.lake.flight.spool.ResultGoneException;
import dev.lake.flight.spool.ResultSpool;
import dev.lake.flight.spool.SpoolUnavailableException;
import dev.lake.flight.ticket.ExpiredTicketException;
import dev.lake.flight.ticket.ForeignTicketException;
import dev.lake.flight.ticket.InvalidTicketException;
import dev.lake.metasrv.NotLeaderException;
import dev.lake.metasrv.SchemaMismatchException;
import dev.lake.metasrv.WriteConflictException;
import dev.lake.query.QueryExecutionException;
import dev.lake.query.QueryRejectedException;
import dev.lake.registry.CommitStateUnknownException;
import dev.lake.registry.LeaseRejectedException;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableExistsException;
import dev.lake.registry.TableNotFoundException;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.UUID;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.grpc.StatusUtils;
import org.apache.arrow.memory.OutOfMemoryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become status codes (design.md's status table). The answer is a gRPC status with
 * the design's code (Arrow's own enum lacks ABORTED and FAILED_PRECONDITION, so the exact code is also sent in the
 * {@value #CODE_KEY} trailer, which Arrow clients read from {@code CallStatus.metadata()}). Messages are the
 * exception's, truncated (gRPC refuses oversized trailers). A bug answers INTERNAL with an error id and no stack
 * trace; the stack trace goes to the log under that id.
 */
public final class StatusMapper {
  public static final String CODE_KEY = "lake-code";
  private static final Metadata.Key<String> CODE = Metadata.Key.of(CODE_KEY, Metadata.ASCII_STRING_MARSHALLER);
  private static final Logger LOG = LoggerFactory.getLogger(StatusMapper.class);
  static final int MAX_MESSAGE = 2000;

  private StatusMapper() {}

  public static RuntimeException toStatus(Throwable t) {
    Throwable e = unwrap(t);
    if (e instanceof StatusRuntimeException s) {
      return s;
    }
    if (e instanceof FlightRuntimeException f) {
      // Arrow's own codes (e.g. UNAUTHORIZED) get the design's name in the trailer too (PERMISSION_DENIED).
      StatusRuntimeException grpc = (StatusRuntimeException) StatusUtils.toGrpcException(f);
      Metadata trailers = grpc.getTrailers() == null ? new Metadata() : grpc.getTrailers();
      trailers.removeAll(CODE);
      trailers.put(CODE, grpc.getStatus().getCode().name());
      return grpc.getStatus().asRuntimeException(trailers);
    }
    Throwable oom = memoryLimit(e);
    if (oom != null) {
      e = oom;
    }
    Status.Code code = codeOf(e);
    Throwable dataError = code == null ? constantDataError(e) : null;
    String message;
    if (dataError != null) {
      code = Status.Code.INVALID_ARGUMENT;
      message = truncate("the statement failed on its data: " + message(dataError));
    } else if (code == null) {
      String id = UUID.randomUUID().toString();
      LOG.error("internal error errorId={}", id, e);
      code = Status.Code.INTERNAL;
      message = "internal error (error id " + id + "); the server log has the details";
    } else {
      message = truncate(message(e));
    }
    Metadata trailers = new Metadata();
    trailers.put(CODE, code.name());
    return Status.fromCode(code).withDescription(message).asRuntimeException(trailers);
  }

  /** The outcome label of a status {@link #toStatus} made: its code in lower case ({@code invalid_argument}). */
  public static String outcome(RuntimeException status) {
    return Status.fromThrowable(status).getCode().name().toLowerCase(java.util.Locale.ROOT);
  }

  static Status.Code codeOf(Throwable e) {
    if (e instanceof dev.lake.registry.error.CodedFailure c) {
      return c.errorCode() == dev.lake.registry.error.ErrorCode.INTERNAL ? null : Status.Code.valueOf(c.errorCode().name());
    }
    if (e instanceof QueryRejectedException || e instanceof SchemaMismatchException
        || e instanceof InvalidTicketException || e instanceof IncompatibleDataException
        || e instanceof IllegalArgumentException || e instanceof LocationNotAllowedException) {
      return Status.Code.INVALID_ARGUMENT;
    }
    if (e instanceof ResultSpool.SpooledFailure f) {
      try {
        return Status.Code.valueOf(f.code());
      } catch (IllegalArgumentException unknown) {
        return null;
      }
    }
    if (e instanceof TableNotFoundException || e instanceof DatasetNotFoundException
        || e instanceof ResultGoneException) {
      return Status.Code.NOT_FOUND;
    }
    if (e instanceof TableExistsException) {
      return Status.Code.ALREADY_EXISTS;
    }
    if (e instanceof UnsupportedOperationException) {
      return Status.Code.UNIMPLEMENTED;
    }
    if (e instanceof ForeignTicketException) {
      return Status.Code.PERMISSION_DENIED;
    }
    if (e instanceof ExpiredTicketException) {
      return Status.Code.FAILED_PRECONDITION;
    }
    if (e instanceof NotLeaderException || e instanceof LeaseRejectedException
        || e instanceof RegistryUnavailableException || e instanceof StorageException
        || e instanceof SpoolUnavailableException) {
      return Status.Code.UNAVAILABLE;
    }
    if (e instanceof WriteConflictException || e instanceof RegistryConflictException
        || e instanceof ForeignCommitException || e instanceof LocationExistsException) {
      return Status.Code.ABORTED;
    }
    if (e instanceof QueryExecutionException q && q.getMessage() != null
        && q.getMessage().startsWith("the statement failed on its data")) {
      return Status.Code.INVALID_ARGUMENT;
    }
    if (e instanceof CommitStateUnknownException) {
      return Status.Code.UNKNOWN;
    }
    if (e instanceof OutOfMemoryException || e instanceof QueryLimitException) {
      return Status.Code.RESOURCE_EXHAUSTED;
    }
    if (e instanceof QueryTimeoutException || e instanceof IngestIdleException) {
      return Status.Code.DEADLINE_EXCEEDED;
    }
    if (e instanceof QueryCancelledException) {
      return Status.Code.CANCELLED;
    }
    return null;
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      m = e.getClass().getSimpleName();
    }
    if (e instanceof OutOfMemoryException) {
      m = "the request exceeded its memory limit (query.memory-limit / ingest.memory-limit); it was stopped and "
          + "nothing else was affected: " + m;
    }
    if (e instanceof RegistryUnavailableException || e instanceof NotLeaderException
        || e instanceof LeaseRejectedException || e instanceof StorageException) {
      m = m + " (retry)";
    }
    return m;
  }

  static String truncate(String m) {
    return m.length() <= MAX_MESSAGE ? m : m.substring(0, MAX_MESSAGE) + "... (truncated)";
  }

  /**
   * A data error (IllegalArgumentException, ArithmeticException: e.g. {@code LN(0)}, {@code 1/0}) that Calcite's
   * runtime raised while initializing generated code, which evaluates constant expressions once: it reaches us
   * wrapped in an ExceptionInInitializerError — or, when a cached plan runs the same generated class again, in a
   * NoClassDefFoundError whose ExceptionInInitializerError names the original exception only in its message. The
   * query layer does not recognize either as the data error it is.
   */
  private static Throwable constantDataError(Throwable t) {
    for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
      if (!(c instanceof ExceptionInInitializerError)) {
        continue;
      }
      if (c.getCause() instanceof IllegalArgumentException || c.getCause() instanceof ArithmeticException) {
        return c.getCause();
      }
      java.util.regex.Matcher m = RECORDED_INIT_FAILURE.matcher(c.getMessage() == null ? "" : c.getMessage());
      if (c.getCause() == null && m.matches()) {
        return new IllegalArgumentException(m.group(2) == null ? m.group(1) : m.group(2));
      }
    }
    return null;
  }

  /** How the JDK records a class initializer's failure for later uses of the class. */
  private static final java.util.regex.Pattern RECORDED_INIT_FAILURE = java.util.regex.Pattern.compile(
      "Exception java\\.lang\\.(IllegalArgumentException|ArithmeticException|NumberFormatException)"
          + "(?:: (.*))? \\[in thread .*\\]", java.util.regex.Pattern.DOTALL);

  /** An Arrow allocator limit anywhere in the cause chain (engines and readers wrap it). */
  private static Throwable memoryLimit(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
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
