package dev.lake.flight.spool;

import dev.lake.flight.limits.Admission;
import dev.lake.flight.limits.QueryCancelledException;
import dev.lake.flight.limits.QueryTimeoutException;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One PollFlightInfo query running in the background on this node: waits for an admission slot (shared with
 * DoGets), runs the query, writes its batches as Arrow IPC stream parts of about {@code results.part-size} to a
 * local temp file each and uploads every finished part, and keeps its {@link PollState} in the store current (parts
 * as they finish, a heartbeat, the outcome). Stops on cancel (this node's registry or the job's cancel marker in the
 * store, seen at each heartbeat) or at {@code query.timeout}; a stopped or failed job deletes its parts and keeps its
 * state, so polls learn the outcome until it expires.
 */
final class SpoolJob implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(SpoolJob.class);
  private static final String QUERY_ID = "queryId";
  static final String STATE = "state.json";
  static final String CANCEL = "cancel";

  /** What the job runs. */
  record Work(String sql, java.util.Map<String, dev.lake.query.model.TablePin> pins, List<Object> parameters) {}

  private final Work work;
  private final SpoolStore store;
  private final ResultSettings settings;
  private final Duration timeout;
  private final ResultSpool.QueryRunner runner;
  private final Admission admission;
  private final BufferAllocator parent;
  private final Clock clock;
  private final LongSupplier ticker;
  private final Function<Throwable, RuntimeException> toStatus;
  private final Path tempDir;
  private final long startedNanos;
  private final long deadlineNanos;
  private final Object lock = new Object();
  private PollState state;
  private boolean finished;
  private volatile RuntimeException stopReason;
  /** The work polls it: a stopped job's planning and execution end, not only its reads. */
  private final dev.lake.query.guard.QueryGuard guard = new dev.lake.query.guard.QueryGuard();
  private Thread worker;
  private final SpoolQuota.Charge charge;
  private final AutoCloseable permit;

  /**
   * @param charge counts the bytes this job writes against the spool's quota
   * @param permit the job's place in its user's query count, given back when the job ends
   */
  SpoolJob(PollState initial, Work work, SpoolStore store, ResultSettings settings, Duration timeout,
      ResultSpool.QueryRunner runner, Admission admission, BufferAllocator parent, Clock clock, LongSupplier ticker,
      Function<Throwable, RuntimeException> toStatus, Path tempDir, SpoolQuota.Charge charge,
      AutoCloseable permit) {
    this.charge = charge;
    this.permit = permit;
    this.state = initial;
    this.work = work;
    this.store = store;
    this.settings = settings;
    this.timeout = timeout;
    this.runner = runner;
    this.admission = admission;
    this.parent = parent;
    this.clock = clock;
    this.ticker = ticker;
    this.toStatus = toStatus;
    this.tempDir = tempDir;
    this.startedNanos = ticker.getAsLong();
    this.deadlineNanos = startedNanos + timeout.toNanos();
  }

  String jobId() {
    return state.jobId();
  }

  @Override
  public void run() {
    synchronized (lock) {
      worker = Thread.currentThread();
    }
    MDC.put(QUERY_ID, jobId()); // the job id is the query id of every line this job logs
    List<PollState.Part> parts = new ArrayList<>();
    long rows = 0;
    long spooled = 0;
    PartFile part = null;
    Optional<RuntimeException> failed = Optional.empty();
    try (Admission.Slot slot = admission.acquire(deadlineNanos);
        BufferAllocator allocator = parent.newChildAllocator("query-spool-" + jobId(), 0, Long.MAX_VALUE)) {
      checkStopped();
      try (ArrowReader reader = runner.execute(work.sql(), work.pins(), work.parameters(), allocator,
          guard)) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        part = new PartFile(root, parts.size());
        boolean more = true;
        while (more) {
          checkStopped();
          more = reader.loadNextBatch();
          if (more) {
            part.write();
            long written = part.bytes();
            charge.add(written - part.charged); // RESOURCE_EXHAUSTED past results.max-bytes(-per-user)
            part.charged = written;
            rows += root.getRowCount();
            part.rows += root.getRowCount();
          }
          if (!more || part.bytes() >= settings.partBytes()) {
            parts.add(part.upload());
            part = null;
            progress(parts, rows);
            if (more) {
              part = new PartFile(root, parts.size());
            }
          }
        }
      }
      checkStopped();
      finish(PollState.Status.DONE, parts, rows, Optional.empty(), Optional.empty());
      spooled = parts.stream().mapToLong(PollState.Part::bytes).sum();
      charge.keep(clock.instant().plus(settings.lifetime()));
      LOG.info("poll job done job={} rows={} parts={}", jobId(), rows, parts.size());
    } catch (Throwable t) {
      RuntimeException reason = stopReason != null ? stopReason : null;
      Throwable failure = reason != null ? reason : t;
      if (failure instanceof InterruptedException) {
        failure = new QueryCancelledException("the poll job was stopped");
      }
      if (part != null) {
        part.discard();
      }
      deleteQuietly(parts);
      charge.release();
      RuntimeException status = toStatus.apply(failure);
      failed = Optional.of(status);
      PollState.Status outcome = failure instanceof QueryCancelledException ? PollState.Status.CANCELLED
          : PollState.Status.FAILED;
      finish(outcome, List.of(), 0, Optional.of(code(status)), Optional.ofNullable(status.getMessage()));
      LOG.info("poll job ended job={} outcome={} reason={}", jobId(), outcome, status.getMessage());
    } finally {
      synchronized (lock) {
        worker = null;
      }
      reportFinished(failed, failed.isPresent() ? 0 : rows, spooled);
      MDC.remove(QUERY_ID);
      closeQuietly(permit);
      Thread.interrupted(); // an interrupt meant for this job must not outlive it on a pooled thread
    }
  }

  /** Tells the statement path the job ended (metrics, slow-query log), under the job's query id. */
  private void reportFinished(Optional<RuntimeException> failure, long rows, long bytes) {
    try {
      runner.finished(jobId(), state.user(), work.sql(), failure,
          Duration.ofNanos(Math.max(0, ticker.getAsLong() - startedNanos)), rows, bytes);
    } catch (RuntimeException e) {
      LOG.warn("reporting a finished poll job failed error={}", e.toString());
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      LOG.warn("releasing a poll job's user count failed error={}", e.toString());
    }
  }

  /** Stops the job (cancel or timeout); returns false once it had ended. */
  boolean stop(RuntimeException reason) {
    synchronized (lock) {
      if (finished || stopReason != null) {
        return false;
      }
      stopReason = reason;
      if (worker != null) {
        worker.interrupt();
      }
    }
    guard.stop(reason instanceof dev.lake.registry.error.CodedFailure coded ? coded.errorCode()
        : reason instanceof dev.lake.flight.limits.QueryTimeoutException
            ? dev.lake.registry.error.ErrorCode.DEADLINE_EXCEEDED : dev.lake.registry.error.ErrorCode.CANCELLED,
        reason.getMessage());
    return true;
  }

  /** The periodic heartbeat: the timeout, the cancel marker, and a fresh {@code updatedAt}. */
  void heartbeat() {
    if (ticker.getAsLong() - deadlineNanos >= 0) {
      stop(new QueryTimeoutException("the query ran longer than query.timeout and was stopped"));
    }
    try {
      if (store.getBytes(jobId() + "/" + CANCEL).isPresent()) {
        stop(new QueryCancelledException("the query was cancelled (CancelFlightInfo)"));
      }
      synchronized (lock) {
        if (finished) {
          return;
        }
        state = state.heartbeat(clock.instant());
        store.putBytes(jobId() + "/" + STATE, state.toJson());
      }
    } catch (IOException e) {
      LOG.warn("poll job heartbeat failed job={} error={}", jobId(), e.getMessage());
    }
  }

  boolean finished() {
    synchronized (lock) {
      return finished;
    }
  }

  private void checkStopped() {
    RuntimeException reason = stopReason;
    if (reason != null) {
      throw reason;
    }
  }

  private void progress(List<PollState.Part> parts, long rows) throws IOException {
    synchronized (lock) {
      state = state.with(PollState.Status.RUNNING, clock.instant(), state.expiresAt(), parts, rows,
          Optional.empty(), Optional.empty());
      store.putBytes(jobId() + "/" + STATE, state.toJson());
    }
  }

  private void finish(PollState.Status outcome, List<PollState.Part> parts, long rows, Optional<String> code,
      Optional<String> message) {
    synchronized (lock) {
      Instant now = clock.instant();
      state = state.with(outcome, now, now.plus(settings.lifetime()), parts, rows, code, message);
      finished = true;
      try {
        store.putBytes(jobId() + "/" + STATE, state.toJson());
      } catch (IOException e) {
        LOG.error("writing the final poll state failed job={} outcome={} error={}", jobId(), outcome,
            e.getMessage());
      }
    }
  }

  private void deleteQuietly(List<PollState.Part> parts) {
    try {
      store.delete(parts.stream().map(PollState.Part::key).toList());
    } catch (IOException e) {
      LOG.warn("deleting the parts of a stopped poll job failed job={} error={} (the sweep removes them)", jobId(),
          e.getMessage());
    }
  }

  static String code(RuntimeException status) {
    if (status instanceof StatusRuntimeException s) {
      Metadata trailers = s.getTrailers();
      String exact = trailers == null ? null : trailers.get(Metadata.Key.of("lake-code",
          Metadata.ASCII_STRING_MARSHALLER));
      return exact != null ? exact : s.getStatus().getCode().name();
    }
    return "INTERNAL";
  }

  /** One part being written to a local temp file as an Arrow IPC stream. */
  private final class PartFile {
    private final int index;
    private final Path file;
    private final FileChannel channel;
    private final ArrowStreamWriter writer;
    long rows;
    long charged;

    PartFile(VectorSchemaRoot root, int index) throws IOException {
      this.index = index;
      Files.createDirectories(tempDir);
      this.file = tempDir.resolve(jobId() + "-" + index + ".arrows");
      this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE);
      this.writer = new ArrowStreamWriter(root, null, Channels.newOutputStream(channel));
      writer.start();
    }

    void write() throws IOException {
      writer.writeBatch();
    }

    long bytes() throws IOException {
      return channel.position();
    }

    void discard() {
      try {
        channel.close();
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.warn("removing a spool temp file failed file={} error={}", file, e.getMessage());
      }
    }

    PollState.Part upload() throws IOException {
      try {
        writer.end();
        long size = channel.position();
        writer.close();
        String key = String.format("%s/part-%05d.arrows", jobId(), index);
        store.put(key, file);
        return new PollState.Part(key, rows, size);
      } finally {
        channel.close();
        Files.deleteIfExists(file);
      }
    }
  }
}
