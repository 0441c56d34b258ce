package dev.lake.flight;

import dev.lake.flight.grpc.StatusMapper;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.CommitConflictException;
import dev.lake.engine.DataStreamException;
import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.EngineException;
import dev.lake.engine.ForeignCommitException;
import dev.lake.engine.IncompatibleDataException;
import dev.lake.engine.InvalidExpressionException;
import dev.lake.engine.LocationExistsException;
import dev.lake.engine.StorageException;
import dev.lake.flight.limits.IngestIdleException;
import dev.lake.flight.limits.QueryCancelledException;
import dev.lake.flight.limits.QueryLimitException;
import dev.lake.flight.limits.QueryTimeoutException;
import dev.lake.flight.security.LocationNotAllowedException;
import dev.lake.flight.spool.ResultGoneException;
import dev.lake.flight.spool.SpoolUnavailableException;
import dev.lake.flight.ticket.ExpiredTicketException;
import dev.lake.flight.ticket.ForeignTicketException;
import dev.lake.flight.ticket.InvalidTicketException;
import dev.lake.metasrv.NotLeaderException;
import dev.lake.metasrv.SchemaMismatchException;
import dev.lake.metasrv.WriteConflictException;
import dev.lake.query.model.QueryDataException;
import dev.lake.query.model.QueryExecutionException;
import dev.lake.query.model.QueryRejectedException;
import dev.lake.registry.CommitStateUnknownException;
import dev.lake.registry.DuplicateIdempotencyKeyException;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaseRejectedException;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableExistsException;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.stream.Stream;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.memory.OutOfMemoryException;
import org.junit.jupiter.api.Test;

/**
 * lake's error model: every exception a client can receive states its status, and the one mapping answers exactly
 * that status (gRPC code and {@code lake-code} trailer) with a message free of server internals. No status is chosen
 * from a message's text: JDK exceptions are bugs (INTERNAL), whatever they say.
 */
class ErrorModelTest {
  /**
   * lake's exception types that never reach a client (start-up and command-line failures, planner signals, and
   * signals caught where they are raised: a forward's re-route, a certificate's ambiguous subject, a parse retry).
   */
  private static final Set<String> NOT_CLIENT_VISIBLE = Set.of("dev.lake.flight.storage.StartupCheckException",
      "dev.lake.flight.cli.UsageException", "dev.lake.query.vector.Unsupported",
      "dev.lake.flight.cluster.LeaderClient$LeaderMoved",
      "dev.lake.flight.security.PeerCertificates$AmbiguousSubjectException",
      "dev.lake.query.sql.LenientParser$SyntaxError");

  /** Every client-visible exception type, one instance each, and the status it declares. */
  private static Map<Throwable, ErrorCode> table() {
    Map<Throwable, ErrorCode> t = new LinkedHashMap<>();
    // registry
    t.put(new RegistryUnavailableException("the registry is down", null), ErrorCode.UNAVAILABLE);
    t.put(new CommitStateUnknownException("the outcome is unknown", null), ErrorCode.UNKNOWN);
    t.put(new LeaseRejectedException("deposed"), ErrorCode.UNAVAILABLE);
    t.put(new RegistryConflictException("moved"), ErrorCode.ABORTED);
    t.put(new TableExistsException("t"), ErrorCode.ALREADY_EXISTS);
    t.put(new DuplicateIdempotencyKeyException(new IdempotencyRecord("t", "g", "k", 2, 1, Instant.EPOCH)),
        ErrorCode.ABORTED);
    t.put(new TableNotFoundException("t"), ErrorCode.NOT_FOUND);
    t.put(new dev.lake.registry.InvalidNameException("invalid table name"), ErrorCode.INVALID_ARGUMENT);
    for (ErrorCode code : ErrorCode.values()) {
      t.put(new LakeException(code, "coded " + code), code);
    }
    // engine
    t.put(new EngineException("engine bug", null), ErrorCode.INTERNAL);
    t.put(new DatasetNotFoundException("no dataset", null), ErrorCode.NOT_FOUND);
    t.put(new IncompatibleDataException("bad data", null), ErrorCode.INVALID_ARGUMENT);
    t.put(new LocationExistsException("/srv/lake/t/g1"), ErrorCode.ABORTED);
    t.put(new DataStreamException("the stream broke", new RuntimeException("x")), ErrorCode.INVALID_ARGUMENT);
    t.put(new DataStreamException("the client was idle", new IngestIdleException("idle", null)),
        ErrorCode.DEADLINE_EXCEEDED);
    t.put(new InvalidExpressionException("bad filter", null), ErrorCode.INVALID_ARGUMENT);
    t.put(new StorageException("disk failed", new IOException("eio")), ErrorCode.UNAVAILABLE);
    t.put(new CommitConflictException("conflict", null), ErrorCode.ABORTED);
    t.put(new ForeignCommitException("/srv/lake/t/g1", 1, 3, 2), ErrorCode.ABORTED);
    // metasrv
    t.put(new WriteConflictException("concurrent writer"), ErrorCode.ABORTED);
    t.put(new NotLeaderException("not the leader"), ErrorCode.UNAVAILABLE);
    t.put(new SchemaMismatchException("column b is missing"), ErrorCode.INVALID_ARGUMENT);
    // query
    t.put(new QueryRejectedException("INSERT statements are not allowed"), ErrorCode.INVALID_ARGUMENT);
    t.put(new QueryDataException("division by zero", new ArithmeticException("/ by zero")),
        ErrorCode.INVALID_ARGUMENT);
    t.put(new QueryExecutionException("the statement failed on its data: looks like data", null),
        ErrorCode.INTERNAL);
    t.put(new dev.lake.query.model.InexactResultException("numeric overflow"), ErrorCode.INVALID_ARGUMENT);
    t.put(new dev.lake.query.guard.QueryMemoryException("over the budget"), ErrorCode.RESOURCE_EXHAUSTED);
    t.put(new dev.lake.query.spill.SpillLimitException("over the spill budget"), ErrorCode.RESOURCE_EXHAUSTED);
    t.put(new dev.lake.query.vector.StateMemoryException("over the budget"), ErrorCode.RESOURCE_EXHAUSTED);
    t.put(new dev.lake.query.guard.QueryStoppedException(ErrorCode.DEADLINE_EXCEEDED, "timed out"),
        ErrorCode.DEADLINE_EXCEEDED);
    t.put(new dev.lake.query.guard.QueryStoppedException(ErrorCode.CANCELLED, "cancelled"), ErrorCode.CANCELLED);
    // flight
    t.put(new QueryCancelledException("cancelled"), ErrorCode.CANCELLED);
    t.put(new IngestIdleException("idle", null), ErrorCode.DEADLINE_EXCEEDED);
    t.put(new QueryLimitException("busy"), ErrorCode.RESOURCE_EXHAUSTED);
    t.put(new QueryTimeoutException("too slow"), ErrorCode.DEADLINE_EXCEEDED);
    t.put(new dev.lake.flight.limits.UserLimitException("too many queries of one user"),
        ErrorCode.RESOURCE_EXHAUSTED);
    t.put(new dev.lake.flight.limits.WriteStallException("the client stopped reading"), ErrorCode.DEADLINE_EXCEEDED);
    t.put(new dev.lake.flight.spool.SpoolQuotaException("the spool is full"), ErrorCode.RESOURCE_EXHAUSTED);
    t.put(new dev.lake.flight.namespace.NamespaceException(dev.lake.flight.namespace.NamespaceException.Kind
        .TABLE_NOT_FOUND, "no table t"), ErrorCode.NOT_FOUND);
    t.put(new FlightStreamReader.IngestStreamException("broken", new RuntimeException("x")),
        ErrorCode.INVALID_ARGUMENT);
    t.put(new FlightStreamReader.IngestStreamException("cancelled",
        CallStatus.CANCELLED.withDescription("gone").toRuntimeException()), ErrorCode.CANCELLED);
    t.put(new ResultGoneException("expired"), ErrorCode.NOT_FOUND);
    t.put(new SpoolUnavailableException("store down", null), ErrorCode.UNAVAILABLE);
    t.put(spooledFailure("RESOURCE_EXHAUSTED"), ErrorCode.RESOURCE_EXHAUSTED);
    t.put(spooledFailure("NO_SUCH_CODE"), ErrorCode.INTERNAL);
    t.put(new ExpiredTicketException("expired"), ErrorCode.FAILED_PRECONDITION);
    t.put(new InvalidTicketException("forged"), ErrorCode.INVALID_ARGUMENT);
    t.put(new ForeignTicketException("another user's"), ErrorCode.PERMISSION_DENIED);
    t.put(new LocationNotAllowedException("outside the data root"), ErrorCode.INVALID_ARGUMENT);
    // JDK exceptions are bugs, whatever their message says
    t.put(new IllegalArgumentException("the statement failed on its data"), ErrorCode.INTERNAL);
    t.put(new UnsupportedOperationException("unknown action"), ErrorCode.INTERNAL);
    t.put(new ClassCastException("java.lang.Long cannot be cast to java.lang.Integer"), ErrorCode.INTERNAL);
    t.put(new ExceptionInInitializerError(new ArithmeticException("/ by zero")), ErrorCode.INTERNAL);
    t.put(new NullPointerException(), ErrorCode.INTERNAL);
    t.put(new StackOverflowError(), ErrorCode.INTERNAL);
    // Arrow's allocator limit, wherever it is wrapped
    t.put(new OutOfMemoryException("limit"), ErrorCode.RESOURCE_EXHAUSTED);
    t.put(new StorageException("reading failed", new OutOfMemoryException("limit")), ErrorCode.RESOURCE_EXHAUSTED);
    return t;
  }

  private static Throwable spooledFailure(String code) {
    try {
      var constructor = dev.lake.flight.spool.ResultSpool.SpooledFailure.class
          .getDeclaredConstructor(String.class, String.class);
      constructor.setAccessible(true);
      return constructor.newInstance(code, "the job failed");
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void everyExceptionMapsToItsDeclaredStatus() throws Exception {
    Map<Throwable, ErrorCode> table = table();
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<Throwable, ErrorCode> row : table.entrySet()) {
      Throwable failure = row.getKey();
      if (failure instanceof CodedFailure coded && coded.errorCode() != row.getValue()
          && !(failure.getCause() instanceof OutOfMemoryException)) {
        wrong.add(failure.getClass().getSimpleName() + " declares " + coded.errorCode() + ", expected "
            + row.getValue());
      }
      for (Throwable wrapped : List.of(failure, new java.util.concurrent.CompletionException(failure))) {
        StatusRuntimeException status = (StatusRuntimeException) StatusMapper.toStatus(wrapped);
        String code = status.getStatus().getCode().name();
        String trailer = status.getTrailers().get(StatusMapper.CODE);
        if (!code.equals(row.getValue().name()) || !row.getValue().name().equals(trailer)) {
          wrong.add(failure.getClass().getSimpleName() + " (" + failure.getMessage() + ") answered " + code
              + " / lake-code " + trailer + ", expected " + row.getValue());
        }
        String message = String.valueOf(status.getStatus().getDescription());
        if (row.getValue() == ErrorCode.INTERNAL && !(message.startsWith("internal error (error id ")
            && message.endsWith("the server log has the details"))) {
          wrong.add(failure + ": a bug's answer is not the error id: " + message);
        }
        if (message.contains("/srv/lake") || message.contains("java.lang") || message.contains("Exception")) {
          wrong.add(failure + ": the message leaks internals: " + message);
        }
      }
    }
    assertThat(wrong).isEmpty();

    // the table covers every exception type lake declares, except those that never reach a client
    Set<String> covered = new TreeSet<>();
    table.keySet().forEach(e -> covered.add(e.getClass().getName()));
    Set<String> missing = new TreeSet<>();
    for (Class<?> type : lakeThrowables()) {
      if (!covered.contains(type.getName()) && !NOT_CLIENT_VISIBLE.contains(type.getName())
          && !Modifier.isAbstract(type.getModifiers())) {
        missing.add(type.getName());
      }
    }
    assertThat(missing).as("exception types without a row in the table").isEmpty();
  }

  @Test
  void everyClientVisibleExceptionTypeStatesItsStatus() throws Exception {
    assertThat(lakeThrowables()).as("lake's exception types found on the class path").hasSizeGreaterThan(30);
    for (Class<?> type : lakeThrowables()) {
      if (!NOT_CLIENT_VISIBLE.contains(type.getName())) {
        assertThat(CodedFailure.class.isAssignableFrom(type)).as(type.getName() + " implements CodedFailure")
            .isTrue();
      }
    }
  }

  @Test
  void messagesLoseServerPathsUrisClassNamesAndFrames() {
    String cleaned = StatusMapper.clean("staging at /srv/lake-data/t/6f1c/data failed: s3://bucket/prefix/t/x "
        + "java.lang.IllegalStateException: boom at org.apache.Foo.bar(Foo.java:12) file:///tmp/x");
    assertThat(cleaned).doesNotContain("/srv").doesNotContain("s3://").doesNotContain("bucket")
        .doesNotContain("java.lang").doesNotContain("Foo.java").doesNotContain("/tmp");
    assertThat(StatusMapper.clean("1/2 is 0.5; 'a/b' and 10/20/30")).isEqualTo("1/2 is 0.5; 'a/b' and 10/20/30");
  }

  @Test
  void statusesFromArrowAndGrpcGetTheTrailer() {
    StatusRuntimeException denied = (StatusRuntimeException) StatusMapper.toStatus(
        CallStatus.UNAUTHORIZED.withDescription("no").toRuntimeException());
    assertThat(denied.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(denied.getTrailers().get(StatusMapper.CODE)).isEqualTo("PERMISSION_DENIED");
    StatusRuntimeException raw = (StatusRuntimeException) StatusMapper.toStatus(
        Status.UNIMPLEMENTED.withDescription("x").asRuntimeException());
    assertThat(raw.getTrailers().get(StatusMapper.CODE)).isEqualTo("UNIMPLEMENTED");
  }

  /** Every Throwable class under dev.lake on the class path (main classes, not tests). */
  static List<Class<?>> lakeThrowables() throws IOException, ClassNotFoundException {
    Set<String> names = new TreeSet<>();
    for (URL url : Collections.list(ErrorModelTest.class.getClassLoader().getResources("dev/lake"))) {
      if (url.getProtocol().equals("file")) {
        Path root = Path.of(url.getPath()).getParent().getParent();
        if (root.toString().contains("test-classes")) {
          continue;
        }
        try (Stream<Path> files = Files.walk(root.resolve("dev/lake"))) {
          files.map(p -> root.relativize(p).toString()).filter(p -> p.endsWith(".class")).forEach(names::add);
        }
      } else if (url.getProtocol().equals("jar") && !url.getPath().contains("-tests.jar")) {
        var jar = ((JarURLConnection) url.openConnection()).getJarFile();
        Collections.list(jar.entries()).stream().map(JarEntry::getName)
            .filter(n -> n.startsWith("dev/lake/") && n.endsWith(".class")).forEach(names::add);
      }
    }
    List<Class<?>> throwables = new ArrayList<>();
    for (String file : names) {
      String name = file.substring(0, file.length() - ".class".length()).replace('/', '.');
      Class<?> type = Class.forName(name, false, ErrorModelTest.class.getClassLoader());
      if (Throwable.class.isAssignableFrom(type) && !type.isAnonymousClass()) {
        throwables.add(type);
      }
    }
    return throwables;
  }
}
