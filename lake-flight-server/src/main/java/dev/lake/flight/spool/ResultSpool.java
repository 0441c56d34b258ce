package dev.lake.flight.spool;

import dev.lake.engine.S3Uri;
import dev.lake.flight.limits.QueryLimitException;
import dev.lake.flight.limits.QueryLimits;
import dev.lake.flight.limits.UserLimits;
import dev.lake.flight.storage.S3Settings;
import dev.lake.flight.ticket.SpoolTokens;
import dev.lake.query.model.TablePin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Heavy results (API tier 2) on one node. {@link #start} spools a planned query in the background and answers
 * with a poll descriptor; {@link #poll} reads the job's state from the store (so any node can answer) and, once
 * the job is done, lists one endpoint per spooled part: a presigned URL (S3) followed by the gRPC fallback
 * ({@link Location#reuseConnection()}: DoGet of the endpoint's ticket on the connection that polled, any node).
 * Expired results are deleted by a sweep every node runs.
 */
public final class ResultSpool implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ResultSpool.class);
  /** How often a running job refreshes its state, checks its cancel marker and its timeout. */
  static final Duration HEARTBEAT = Duration.ofSeconds(5);
  /** A running job whose state was not refreshed for this long lost its node. */
  static final Duration STALE = Duration.ofMinutes(2);

  private final ResultSettings settings;
  private final SpoolStore store;
  private final SpoolTokens tokens;
  private final QueryRunner runner;
  private final QueryLimits limits;
  private final BufferAllocator allocator;
  private final Clock clock;
  private final LongSupplier ticker;
  private final Function<Throwable, RuntimeException> toStatus;
  private final String nodeId;
  private final Path tempDir;
  private final ThreadPoolExecutor workers;
  private final ScheduledExecutorService scheduler;
  private final Map<String, SpoolJob> running = new ConcurrentHashMap<>();
  private final Map<String, ScheduledFuture<?>> heartbeats = new ConcurrentHashMap<>();
  private ScheduledFuture<?> sweeper;

  /**
   * The statement path the spool's jobs run on, the same as DoGet's (the node wires it): runs a query the spool
   * writes out (SQL, pinned versions, bound parameters), and hears once of each job's end, to report it as DoGet
   * reports a query (metrics, slow-query log).
   */
  public interface QueryRunner {
    ArrowReader execute(String sql, Map<String, TablePin> pins, List<Object> parameters, BufferAllocator allocator,
        dev.lake.query.guard.QueryGuard guard);

    /**
     * A job ended, on its worker thread (its query id in the MDC).
     *
     * @param failure empty when the whole result was spooled, else the status its polls answer
     * @param duration from the job's start (queueing included) to its end
     * @param rows rows spooled
     * @param bytes Arrow IPC bytes spooled
     */
    void finished(String queryId, String user, String sql, Optional<RuntimeException> failure, Duration duration,
        long rows, long bytes);
  }

  ResultSpool(ResultSettings settings, SpoolStore store, SpoolTokens tokens, QueryRunner runner,
      QueryLimits limits, BufferAllocator allocator, Clock clock, LongSupplier ticker,
      Function<Throwable, RuntimeException> toStatus, String nodeId, Path tempDir) {
    this.settings = settings;
    this.store = store;
    this.tokens = tokens;
    this.runner = runner;
    this.limits = limits;
    this.allocator = allocator;
    this.clock = clock;
    this.ticker = ticker;
    this.toStatus = toStatus;
    this.nodeId = nodeId;
    this.tempDir = tempDir;
    int maxJobs = limits.settings().maxConcurrent() + limits.settings().maxQueued();
    AtomicInteger n = new AtomicInteger();
    this.workers = new ThreadPoolExecutor(0, Math.max(1, maxJobs), 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
        r -> {
          Thread t = new Thread(r, "lake-spool-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "lake-spool-heartbeat");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Opens the spool for {@code settings.prefix()}: S3 (with presigned URLs) for an {@code s3://} prefix, else a
   * local directory.
   */
  private SpoolQuota quota;

  public static ResultSpool open(ResultSettings settings, S3Settings s3, SpoolTokens tokens, QueryRunner runner,
      QueryLimits limits, BufferAllocator allocator, Clock clock, LongSupplier ticker,
      Function<Throwable, RuntimeException> toStatus, String nodeId, Path tempDir, SpoolQuota quota) {
    SpoolStore store = S3Uri.isS3(settings.prefix()) ? S3SpoolStore.open(settings.prefix(), s3)
        : new LocalSpoolStore(Path.of(settings.prefix()));
    ResultSpool spool = new ResultSpool(settings, store, tokens, runner, limits, allocator, clock, ticker, toStatus,
        nodeId, tempDir);
    spool.quota = quota;
    return spool;
  }

  /** The spool's quota (bytes of this node's results until they expire). */
  public SpoolQuota quota() {
    return quota;
  }

  /** Runs the expiry sweep every {@code results.sweep-interval}. */
  public ResultSpool startSweeper() {
    long every = settings.sweepInterval().toMillis();
    sweeper = scheduler.scheduleWithFixedDelay(() -> {
      try {
        sweep();
      } catch (RuntimeException e) {
        LOG.warn("sweeping expired results failed store={} error={}", store.describe(), e.getMessage());
      }
    }, every, every, TimeUnit.MILLISECONDS);
    return this;
  }

  public String describe() {
    return store.describe();
  }

  /** True for a descriptor {@link #start} handed out (poll it with {@link #poll}). */
  public static boolean isJob(FlightDescriptor descriptor) {
    return descriptor != null && descriptor.isCommand() && SpoolTokens.isJob(descriptor.getCommand());
  }

  /** True for the ticket of a spooled part (read it with {@link #openPart}). */
  public static boolean isPart(byte[] ticket) {
    return SpoolTokens.isPart(ticket);
  }

  /**
   * Starts spooling a planned query for {@code user} as job {@code queryId} (the id its planning logged under): writes the job's state (so any node can answer the next
   * poll), hands the job to a background thread, and answers with a running PollInfo.
   *
   * @throws QueryLimitException when this node already runs as many poll jobs as it may queue
   */
  public PollInfo start(String queryId, String user, String sql, List<Object> parameters,
      Map<String, TablePin> pins, Schema schema) {
    String jobId = java.util.Objects.requireNonNull(queryId, "queryId"); // the job's id is its query's id
    Instant now = clock.instant();
    Duration timeout = limits.settings().timeout();
    Instant jobExpiry = now.plus(timeout).plus(settings.lifetime());
    PollState state = new PollState(jobId, user, nodeId, PollState.Status.RUNNING, schema.toJson(), now, now,
        jobExpiry, List.of(), 0, Optional.empty(), Optional.empty());
    UserLimits.Permit permit = limits.users().acquire(user); // a job counts against its user's queries
    try {
      write(state);
    } catch (RuntimeException e) {
      permit.close();
      throw e;
    }
    SpoolJob job = new SpoolJob(state, new SpoolJob.Work(sql, pins, parameters), store, settings, timeout, runner,
        limits.admission(), allocator, clock, ticker, toStatus, tempDir, quota.open(user), permit);
    running.put(jobId, job);
    try {
      workers.execute(() -> {
        try {
          job.run();
        } finally {
          running.remove(jobId);
          ScheduledFuture<?> beat = heartbeats.remove(jobId);
          if (beat != null) {
            beat.cancel(false);
          }
        }
      });
    } catch (RejectedExecutionException e) {
      running.remove(jobId);
      permit.close();
      deleteQuietly(List.of(jobId + "/" + SpoolJob.STATE));
      throw new QueryLimitException("the server is busy: it runs as many PollFlightInfo jobs as query.max-concurrent"
          + " + query.max-queued allow; retry later");
    }
    long beat = HEARTBEAT.toMillis();
    heartbeats.put(jobId, scheduler.scheduleWithFixedDelay(job::heartbeat, beat, beat, TimeUnit.MILLISECONDS));
    LOG.info("poll job started job={} user={}", jobId, user);
    FlightDescriptor descriptor = FlightDescriptor.command(tokens.encodeJob(new SpoolTokens.Job(jobId, user,
        jobExpiry)));
    return running(schema, descriptor, jobExpiry);
  }

  /** The job's state as the store holds it: still running, done (the endpoints), or its failure as a status. */
  public PollInfo poll(FlightDescriptor descriptor, String user) {
    SpoolTokens.Job job = tokens.decodeJob(descriptor.getCommand(), user);
    PollState state = read(job.jobId());
    Schema schema = schema(state);
    switch (state.status()) {
      case RUNNING:
        if (state.updatedAt().plus(STALE).isBefore(clock.instant()) && !running.containsKey(job.jobId())) {
          throw new SpoolUnavailableException("the node running this query (" + state.node() + ") stopped "
              + "answering at " + state.updatedAt() + ": run the query again", null);
        }
        return running(schema, descriptor, job.expiresAt());
      case DONE:
        return done(state, schema, descriptor);
      case CANCELLED:
        throw new dev.lake.flight.limits.QueryCancelledException(state.errorMessage()
            .orElse("the query was cancelled (CancelFlightInfo)"));
      default:
        throw new SpooledFailure(state.errorCode().orElse("INTERNAL"), state.errorMessage().orElse("the query failed"));
    }
  }

  /**
   * Cancels a poll job (this node's, at once; another node's at its next heartbeat, through the cancel marker
   * beside its state).
   */
  public CancelStatus cancel(FlightDescriptor descriptor, String user) {
    SpoolTokens.Job job = tokens.decodeJobForCancel(descriptor.getCommand(), user);
    PollState state;
    try {
      state = read(job.jobId());
    } catch (ResultGoneException e) {
      return CancelStatus.NOT_CANCELLABLE;
    }
    if (state.status() != PollState.Status.RUNNING) {
      return CancelStatus.NOT_CANCELLABLE;
    }
    SpoolJob local = running.get(job.jobId());
    if (local != null && local.stop(new dev.lake.flight.limits.QueryCancelledException(
        "the query was cancelled (CancelFlightInfo)"))) {
      return CancelStatus.CANCELLED;
    }
    try {
      store.putBytes(job.jobId() + "/" + SpoolJob.CANCEL, new byte[0]);
    } catch (IOException e) {
      throw new SpoolUnavailableException("the results store cannot be reached to cancel the job: " + e.getMessage()
          + " (retry)", e);
    }
    return CancelStatus.CANCELLING;
  }

  /** The job and part a spooled-part ticket names, for the caller's limits. */
  public String partId(byte[] ticket, String user) {
    SpoolTokens.Part part = tokens.decodePart(ticket, user);
    return part.jobId() + "/" + part.part();
  }

  /** Opens a spooled part as an Arrow stream (the gRPC fallback of its presigned URL). */
  public ArrowReader openPart(byte[] ticket, String user, BufferAllocator into) {
    SpoolTokens.Part part = tokens.decodePart(ticket, user);
    PollState state = read(part.jobId());
    if (state.status() != PollState.Status.DONE || part.part() >= state.parts().size()) {
      throw new dev.lake.flight.ticket.InvalidTicketException("the ticket names no spooled part of this result");
    }
    InputStream in;
    try {
      in = store.open(state.parts().get(part.part()).key());
    } catch (java.nio.file.NoSuchFileException e) {
      throw new ResultGoneException("the spooled result expired and was deleted: run the query again");
    } catch (IOException e) {
      throw new SpoolUnavailableException("the results store cannot be reached: " + e.getMessage() + " (retry)", e);
    }
    return new ArrowStreamReader(in, into);
  }

  /** Deletes every job whose result expired (and stray objects of jobs without a state). Returns how many. */
  public int sweep() {
    Instant now = clock.instant();
    Map<String, List<SpoolStore.StoredObject>> byJob = new HashMap<>();
    try {
      for (SpoolStore.StoredObject o : store.list("")) {
        int slash = o.key().indexOf('/');
        if (slash > 0) {
          byJob.computeIfAbsent(o.key().substring(0, slash), k -> new ArrayList<>()).add(o);
        }
      }
    } catch (IOException e) {
      throw new SpoolUnavailableException(e.getMessage(), e);
    }
    int removed = 0;
    Duration strayAge = limits.settings().timeout().plus(settings.lifetime());
    for (Map.Entry<String, List<SpoolStore.StoredObject>> e : byJob.entrySet()) {
      String jobId = e.getKey();
      if (running.containsKey(jobId)) {
        continue;
      }
      boolean expired;
      try {
        Optional<byte[]> bytes = store.getBytes(jobId + "/" + SpoolJob.STATE);
        if (bytes.isPresent()) {
          expired = !now.isBefore(PollState.fromJson(bytes.get()).expiresAt());
        } else {
          expired = e.getValue().stream().allMatch(o -> o.lastModified().plus(strayAge).isBefore(now));
        }
      } catch (IOException ex) {
        LOG.warn("unreadable poll state, left for a later sweep job={} error={}", jobId, ex.getMessage());
        continue;
      }
      if (expired) {
        // parts first, the state last: a poll never sees a state whose parts are half gone as valid for long
        List<String> keys = new ArrayList<>(e.getValue().stream().map(SpoolStore.StoredObject::key)
            .filter(k -> !k.endsWith("/" + SpoolJob.STATE)).toList());
        deleteQuietly(keys);
        deleteQuietly(List.of(jobId + "/" + SpoolJob.STATE));
        removed++;
        LOG.info("expired result deleted job={} objects={}", jobId, e.getValue().size());
      }
    }
    return removed;
  }

  /** Poll jobs running on this node now. */
  public int runningJobs() {
    return running.size();
  }

  @Override
  public void close() {
    if (sweeper != null) {
      sweeper.cancel(false);
    }
    for (SpoolJob job : running.values()) {
      job.stop(new dev.lake.flight.limits.QueryCancelledException("the server is shutting down"));
    }
    workers.shutdown();
    try {
      if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("poll jobs still running at shutdown jobs={}", running.keySet());
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      workers.shutdownNow();
    }
    scheduler.shutdownNow();
    store.close();
  }

  // ---- helpers ----

  private PollInfo running(Schema schema, FlightDescriptor descriptor, Instant expiresAt) {
    FlightInfo info = FlightInfo.builder(schema, descriptor, List.of()).setRecords(-1).setBytes(-1).build();
    return new PollInfo(info, descriptor, null, expiresAt);
  }

  private PollInfo done(PollState state, Schema schema, FlightDescriptor descriptor) {
    Duration left = Duration.between(clock.instant(), state.expiresAt());
    List<FlightEndpoint> endpoints = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < state.parts().size(); i++) {
      PollState.Part part = state.parts().get(i);
      bytes += part.bytes();
      Ticket ticket = new Ticket(tokens.encodePart(new SpoolTokens.Part(state.jobId(), i, state.user(),
          state.expiresAt())));
      List<Location> locations = new ArrayList<>();
      store.presign(part.key(), left).ifPresent(url -> locations.add(new Location(url)));
      locations.add(Location.reuseConnection());
      endpoints.add(new FlightEndpoint(ticket, state.expiresAt(), locations.toArray(new Location[0])));
    }
    FlightInfo info = FlightInfo.builder(schema, descriptor, endpoints).setRecords(state.rows()).setBytes(bytes)
        .setOrdered(true).build();
    return new PollInfo(info, null, 1.0, state.expiresAt());
  }

  private Schema schema(PollState state) {
    try {
      return Schema.fromJSON(state.schemaJson());
    } catch (IOException e) {
      throw new SpoolUnavailableException("the poll state of job " + state.jobId() + " is unreadable", e);
    }
  }

  private PollState read(String jobId) {
    Optional<byte[]> bytes;
    try {
      bytes = store.getBytes(jobId + "/" + SpoolJob.STATE);
    } catch (IOException e) {
      throw new SpoolUnavailableException("the results store cannot be reached: " + e.getMessage() + " (retry)", e);
    }
    if (bytes.isEmpty()) {
      throw new ResultGoneException("the result of this query expired and was deleted (results.lifetime): run the "
          + "query again");
    }
    try {
      return PollState.fromJson(bytes.get());
    } catch (IOException e) {
      throw new SpoolUnavailableException("the poll state of job " + jobId + " is unreadable: " + e.getMessage(), e);
    }
  }

  private void write(PollState state) {
    try {
      store.putBytes(state.jobId() + "/" + SpoolJob.STATE, state.toJson());
    } catch (IOException e) {
      throw new SpoolUnavailableException("the results store " + store.describe() + " cannot be written: "
          + e.getMessage() + " (retry)", e);
    }
  }

  private void deleteQuietly(List<String> keys) {
    try {
      store.delete(keys);
    } catch (IOException e) {
      LOG.warn("deleting spooled objects failed keys={} error={}", keys.size(), e.getMessage());
    }
  }

  /** A job's recorded failure, answered with the status code it failed with. */
  public static final class SpooledFailure extends RuntimeException implements dev.lake.registry.error.CodedFailure {
    private final String code;

    /** The code the job recorded; one this version does not know (a newer node's) answers INTERNAL. */
    @Override
    public dev.lake.registry.error.ErrorCode errorCode() {
      for (dev.lake.registry.error.ErrorCode c : dev.lake.registry.error.ErrorCode.values()) {
        if (c.name().equals(code)) {
          return c;
        }
      }
      return dev.lake.registry.error.ErrorCode.INTERNAL;
    }

    SpooledFailure(String code, String message) {
      super(message);
      this.code = code;
    }

    public String code() {
      return code;
    }
  }
}
