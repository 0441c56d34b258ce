package dev.lake.flight.limits;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;

/**
 * The read path's limits on one node: {@link #begin} starts a query's clock (its timeout runs from DoGet's start to
 * the last batch, slow readers included), registers it for cancellation, and hands back its {@link QueryControl},
 * whose {@link QueryControl#admit()} waits for an admission slot. Close it to release everything.
 */
public final class QueryLimits implements AutoCloseable {
  private final LimitSettings settings;
  private final LongSupplier ticker;
  private final Function<Throwable, RuntimeException> toStatus;
  private final Admission admission;
  private final RunningQueries running;
  private final ScheduledExecutorService watchdogs;
  private final IdleStreams idleStreams;
  private final UserLimits users;
  private final WriteStall writeStall;

  /** With the default per-user limit (8 queries) and write-stall timeout (2 minutes). */
  public QueryLimits(LimitSettings settings, LongSupplier ticker, Clock clock,
      Function<Throwable, RuntimeException> toStatus) {
    this(settings, ticker, clock, toStatus, 8, Duration.ofMinutes(2));
  }

  /**
   * @param ticker monotonic nanoseconds (deadlines)
   * @param clock wall time (ticket expiries of cancelled queries)
   * @param toStatus turns a failure into the status the client gets (the node's one status mapping)
   * @param maxPerUser {@code query.max-concurrent-per-user} ({@link UserLimits})
   * @param writeStallTimeout {@code query.write-stall-timeout} ({@link WriteStall})
   */
  public QueryLimits(LimitSettings settings, LongSupplier ticker, Clock clock,
      Function<Throwable, RuntimeException> toStatus, int maxPerUser, Duration writeStallTimeout) {
    this.users = new UserLimits(maxPerUser);
    this.writeStall = new WriteStall(writeStallTimeout, ticker);
    this.settings = settings;
    this.ticker = ticker;
    this.toStatus = toStatus;
    this.admission = new Admission(settings.maxConcurrent(), settings.maxQueued(), ticker);
    this.running = new RunningQueries(clock);
    this.idleStreams = new IdleStreams(settings.ingestIdleTimeout(), ticker);
    AtomicInteger n = new AtomicInteger();
    this.watchdogs = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "lake-query-deadlines-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts the clock of query {@code queryId} answering {@code listener}; the client's cancel stops it.
   *
   * @throws QueryCancelledException when this query was cancelled before it started here
   */
  public QueryControl begin(String queryId, ServerStreamListener listener) {
    Duration timeout = settings.timeout();
    long deadline = ticker.getAsLong() + timeout.toNanos();
    QueryControl[] self = new QueryControl[1];
    QueryControl control = new QueryControl(queryId, listener, toStatus, admission, deadline,
        () -> running.unregister(self[0]));
    self[0] = control;
    running.register(control);
    listener.setOnCancelHandler(() -> control.stop(new QueryCancelledException("the client cancelled the query")));
    control.watchdog(watchdogs.schedule(() -> control.stop(new QueryTimeoutException("the query ran longer than "
        + "query.timeout (" + format(timeout) + ", from DoGet's start to its last batch) and was stopped; narrow it, "
        + "read it faster, or use PollFlightInfo for heavy results")), timeout.toNanos(), TimeUnit.NANOSECONDS));
    return control;
  }

  /**
   * Runs {@code onDeadline} once {@code query.planning-timeout} has passed from now, unless the returned handle is
   * cancelled first: the deadline of a planning request (GetFlightInfo, CreatePreparedStatement, GetSchema,
   * PollFlightInfo's start), which plans without executing and takes no admission slot.
   */
  public java.util.concurrent.ScheduledFuture<?> planningDeadline(Runnable onDeadline) {
    return watchdogs.schedule(onDeadline, settings.planningTimeout().toNanos(), TimeUnit.NANOSECONDS);
  }

  /** {@code query.planning-timeout} as the configuration writes it (1m, 2s, 500ms). */
  public String planningTimeoutText() {
    return format(settings.planningTimeout());
  }

  public LimitSettings settings() {
    return settings;
  }

  public Admission admission() {
    return admission;
  }

  /** Waits for the next batch of an incoming stream within {@code ingest.idle-timeout}. */
  public IdleStreams idleStreams() {
    return idleStreams;
  }

  /** Per-user query counts next to the node-wide admission. */
  public UserLimits users() {
    return users;
  }

  /** The bound on how long a result stream waits for its client to read. */
  public WriteStall writeStall() {
    return writeStall;
  }

  public RunningQueries running() {
    return running;
  }

  @Override
  public void close() {
    watchdogs.shutdownNow();
    idleStreams.close();
  }

  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
