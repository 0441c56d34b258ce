package dev.lake.flight;

import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.ForeignCommitException;
import dev.lake.engine.IncompatibleDataException;
import dev.lake.engine.StorageException;
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
      return (RuntimeException) StatusUtils.toGrpcException(f);
    }
    Throwable oom = memoryLimit(e);
    if (oom != null) {
      e = oom;
    }
    Status.Code code = codeOf(e);
    String message;
    if (code == null) {
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

  static Status.Code codeOf(Throwable e) {
    if (e instanceof QueryRejectedException || e instanceof SchemaMismatchException
        || e instanceof InvalidTicketException || e instanceof IncompatibleDataException
        || e instanceof IllegalArgumentException) {
      return Status.Code.INVALID_ARGUMENT;
    }
    if (e instanceof TableNotFoundException || e instanceof DatasetNotFoundException) {
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
        || e instanceof RegistryUnavailableException || e instanceof StorageException) {
      return Status.Code.UNAVAILABLE;
    }
    if (e instanceof WriteConflictException || e instanceof RegistryConflictException
        || e instanceof ForeignCommitException) {
      return Status.Code.ABORTED;
    }
    if (e instanceof QueryExecutionException q && q.getMessage() != null
        && q.getMessage().startsWith("the statement failed on its data")) {
      return Status.Code.INVALID_ARGUMENT;
    }
    if (e instanceof CommitStateUnknownException) {
      return Status.Code.UNKNOWN;
    }
    if (e instanceof OutOfMemoryException) {
      return Status.Code.RESOURCE_EXHAUSTED;
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
