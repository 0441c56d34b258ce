package dev.lake.query;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.registry.MetaStore;
import dev.lake.registry.Page;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog as a cache shield over the registry (docs/design.md invariant 6).
 *
 * <ul>
 *   <li>The request path never scans the registry: {@link #table} and {@link #tables} are answered from a snapshot
 *       of the whole registry, taken once at start-up ({@link #refresh}) and then by a background full refresh every
 *       {@link CatalogSettings#refreshInterval()} ({@link #refreshIfDue}). Full refreshes are coalesced: at most one
 *       runs at a time and concurrent callers share its outcome.
 *   <li>While the registry fails, the last good snapshot keeps being served, up to
 *       {@link CatalogSettings#stalenessBound()} after its listing started; past that every look-up throws
 *       {@link RegistryUnavailableException} naming the registry. Backend errors are never turned into "no such
 *       table".
 *   <li>A name missing from the snapshot costs at most one point read ({@code MetaStore.get}), shared by every
 *       concurrent look-up of that name; its answer is kept for the ttl when positive (until the next full refresh
 *       supersedes it) and for {@link CatalogSettings#negativeTtl()} when negative.
 *   <li>Read-your-writes: {@link #registered} and {@link #dropped} take effect at once; of an acknowledged registration
 *       and the cache's, the newer (later incarnation, then higher version) wins, so a refresh that started before
 *       a write can never replace it.
 *   <li>Histories (time travel) are read on demand and kept for the ttl per incarnation and registered version.
 * </ul>
 * Time comes from the injected {@link Ticker}. Thread-safe.
 */
public final class CachingCatalog implements Catalog, RegistrationListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CachingCatalog.class);
  static final int PAGE_SIZE = 500;
  private static final int MAX_POINT_ENTRIES = 10_000;
  private static final int MAX_HISTORIES = 1_000;

  private final MetaStore store;
  private final CatalogSettings settings;
  private final Ticker ticker;
  private final RecentWrites recent = new RecentWrites();
  private final CoalescingCache<String, PointRead> points;
  private final CoalescingCache<HistoryKey, List<VersionRecord>> histories;
  private final AtomicReference<CompletableFuture<Snapshot>> refreshing = new AtomicReference<>();
  private final ScheduledExecutorService scheduler;
  private volatile Snapshot snapshot;
  private volatile long lastAttemptNanos;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder pointLoads = new LongAdder();
  private final LongAdder historyLoads = new LongAdder();
  private final LongAdder refreshes = new LongAdder();
  private final LongAdder refreshFailures = new LongAdder();

  /**
   * A catalog without a background schedule: call {@link #refresh()} once (start-up), then {@link #refreshIfDue()}
   * whenever the ticker may have moved (tests drive it with their ticker).
   */
  public CachingCatalog(MetaStore store, CatalogSettings settings, Ticker ticker) {
    this(store, settings, ticker, false);
  }

  private CachingCatalog(MetaStore store, CatalogSettings settings, Ticker ticker, boolean background) {
    this.store = Objects.requireNonNull(store, "store");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.points = new CoalescingCache<>(Caffeine.newBuilder()
        .ticker(ticker)
        .executor(Runnable::run)
        .maximumSize(MAX_POINT_ENTRIES)
        .expireAfter(new PointExpiry(settings.ttl(), settings.negativeTtl()))
        .build());
    this.histories = new CoalescingCache<>(Caffeine.newBuilder()
        .ticker(ticker)
        .executor(Runnable::run)
        .maximumSize(MAX_HISTORIES)
        .expireAfterWrite(settings.ttl())
        .build());
    this.scheduler = background ? Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "lake-catalog-refresh");
      thread.setDaemon(true);
      return thread;
    }) : null;
  }

  /**
   * The production catalog: the system ticker, a full refresh now (a registry that does not answer fails the
   * start), then a background refresh every {@link CatalogSettings#refreshInterval()} on the named single thread
   * {@code lake-catalog-refresh}, which {@link #close()} stops.
   *
   * @throws RegistryUnavailableException when the start-up refresh fails
   */
  public static CachingCatalog start(MetaStore store, CatalogSettings settings) {
    CachingCatalog catalog = new CachingCatalog(store, settings, Ticker.systemTicker(), true);
    try {
      catalog.refresh();
    } catch (RuntimeException e) {
      catalog.close();
      throw e;
    }
    long poll = Math.max(100, Math.min(1_000, settings.refreshInterval().toMillis() / 10));
    catalog.scheduler.scheduleWithFixedDelay(catalog::refreshIfDue, poll, poll, TimeUnit.MILLISECONDS);
    LOG.info("catalog started registry={} tables={} ttl={} stalenessBound={} negativeTtl={} refreshInterval={}",
        store.describe(), catalog.snapshot.tables().size(), settings.ttl(), settings.stalenessBound(),
        settings.negativeTtl(), settings.refreshInterval());
    return catalog;
  }

  @Override
  public Optional<TableRegistration> table(String name) {
    if (!TableNames.isValid(name)) {
      return Optional.empty();
    }
    String key = TableNames.normalize(name);
    Snapshot current = servable();
    TableRegistration listed = current.tables().get(key);
    if (listed != null || recent.accepted(key).isPresent()) {
      hits.increment();
      return recent.merge(key, Optional.ofNullable(listed));
    }
    return recent.merge(key, pointRead(key));
  }

  /** The snapshot's registrations with this node's own writes laid over them, in name order. */
  @Override
  public List<TableRegistration> tables() {
    Snapshot current = servable();
    TreeSet<String> names = new TreeSet<>(current.tables().keySet());
    names.addAll(recent.acceptedNames());
    List<TableRegistration> result = new ArrayList<>(names.size());
    for (String name : names) {
      recent.merge(name, Optional.ofNullable(current.tables().get(name))).ifPresent(result::add);
    }
    return result;
  }

  @Override
  public List<VersionRecord> history(String name, String generation) {
    String key = TableNames.normalize(name);
    Objects.requireNonNull(generation, "generation");
    // Keyed by the registered version too: once the table moves on, the next read sees its newer items.
    long registered = table(key).filter(r -> r.generation().equals(generation))
        .map(TableRegistration::version).orElse(0L);
    return histories.get(new HistoryKey(key, generation, registered), () -> {
      historyLoads.increment();
      return List.copyOf(store.history(key, generation));
    });
  }

  /** Read-your-writes: a registration this node's writer (or its leader, for a follower) just acknowledged. */
  @Override
  public void registered(TableRegistration acknowledged) {
    recent.accept(acknowledged);
    points.invalidate(acknowledged.name());
  }

  /** A table this node (or its leader, for a follower) just dropped: the given generation. */
  @Override
  public void dropped(String name, String generation) {
    recent.dropped(name, generation);
    points.invalidate(TableNames.normalize(name));
  }

  /**
   * Lists the whole registry and installs the result as the snapshot. Coalesced: while a refresh runs, callers wait
   * for it and share its outcome.
   *
   * @throws RegistryUnavailableException when the registry did not answer (the previous snapshot stays)
   */
  public void refresh() {
    CompletableFuture<Snapshot> mine = new CompletableFuture<>();
    CompletableFuture<Snapshot> running = refreshing.compareAndExchange(null, mine);
    if (running != null) {
      join(running);
      return;
    }
    long started = ticker.read();
    lastAttemptNanos = started;
    try {
      Snapshot fresh = list(started);
      install(fresh);
      refreshes.increment();
      LOG.debug("catalog refreshed registry={} tables={} tookMs={}", store.describe(), fresh.tables().size(),
          TimeUnit.NANOSECONDS.toMillis(ticker.read() - started));
      mine.complete(fresh);
    } catch (RuntimeException e) {
      refreshFailures.increment();
      Snapshot previous = snapshot;
      LOG.warn("catalog refresh failed registry={} snapshotAge={} stalenessBound={} error={}", store.describe(),
          previous == null ? "none" : human(Duration.ofNanos(started - previous.listedAtNanos())),
          human(settings.stalenessBound()), e.toString());
      mine.completeExceptionally(e);
      throw e;
    } finally {
      refreshing.compareAndSet(mine, null);
    }
  }

  /** Runs a full refresh when the last one started at least a refresh interval ago; failures are logged. */
  public void refreshIfDue() {
    if (ticker.read() - lastAttemptNanos < settings.refreshInterval().toNanos()) {
      return;
    }
    try {
      refresh();
    } catch (RuntimeException e) {
      // counted and logged by refresh(); the last good snapshot stays until the staleness bound
    }
  }

  public CatalogSettings settings() {
    return settings;
  }

  public CatalogStats stats() {
    Snapshot current = snapshot;
    Duration age = current == null ? ChronoUnit.FOREVER.getDuration()
        : Duration.ofNanos(ticker.read() - current.listedAtNanos());
    return new CatalogStats(hits.sum(), misses.sum(), pointLoads.sum(), historyLoads.sum(), refreshes.sum(),
        refreshFailures.sum(), age, current == null ? 0 : current.tables().size());
  }

  /** Stops the background refresh (the store is the caller's to close). */
  @Override
  public void close() {
    if (scheduler == null) {
      return;
    }
    scheduler.shutdownNow();
    try {
      if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("catalog refresh thread did not stop within 10 s registry={}", store.describe());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Snapshot servable() {
    Snapshot current = snapshot;
    if (current == null) {
      throw new RegistryUnavailableException("the catalog holds no snapshot of the registry " + store.describe()
          + " yet (its start-up refresh did not succeed): check the registry and retry", null);
    }
    long age = ticker.read() - current.listedAtNanos();
    if (age > settings.stalenessBound().toNanos()) {
      throw new RegistryUnavailableException("the registry " + store.describe() + " has not answered for "
          + human(Duration.ofNanos(age)) + " (staleness bound " + human(settings.stalenessBound()) + "): retry",
          null);
    }
    return current;
  }

  private Optional<TableRegistration> pointRead(String name) {
    Optional<PointRead> cached = points.cached(name);
    if (cached.isPresent()) {
      hits.increment();
      return cached.get().registration();
    }
    misses.increment();
    return points.get(name, () -> {
      long at = ticker.read();
      pointLoads.increment();
      return new PointRead(store.get(name), at);
    }).registration();
  }

  private Snapshot list(long started) {
    NavigableMap<String, TableRegistration> tables = new TreeMap<>();
    Optional<String> cursor = Optional.empty();
    do {
      Page<TableRegistration> page = store.list(cursor, PAGE_SIZE);
      for (TableRegistration registration : page.items()) {
        tables.put(registration.name(), registration);
      }
      cursor = page.next();
    } while (cursor.isPresent());
    return new Snapshot(Collections.unmodifiableNavigableMap(tables), started);
  }

  private void install(Snapshot fresh) {
    snapshot = fresh;
    recent.caughtUp(fresh.tables());
    // Point reads older than the listing are superseded by it.
    points.removeIf((name, read) -> read.readAtNanos() - fresh.listedAtNanos() < 0);
  }

  private static <V> V join(CompletableFuture<V> future) {
    try {
      return future.get();
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryUnavailableException("interrupted while waiting for the registry: retry", e);
    }
  }

  static String human(Duration duration) {
    Duration shown = duration.compareTo(Duration.ofSeconds(1)) >= 0 ? duration.truncatedTo(ChronoUnit.SECONDS)
        : duration.truncatedTo(ChronoUnit.MILLIS);
    if (shown.isZero()) {
      return "0s";
    }
    return shown.toString().substring(2).toLowerCase(Locale.ROOT);
  }

  /** A full listing and when it started (monotonic nanos). */
  private record Snapshot(NavigableMap<String, TableRegistration> tables, long listedAtNanos) {}

  /** A point read's answer and when it started. */
  private record PointRead(Optional<TableRegistration> registration, long readAtNanos) {}

  private record HistoryKey(String name, String generation, long registeredVersion) {}

  /** Positive point reads live for the ttl, negative ones for the negative ttl. */
  private static final class PointExpiry implements Expiry<String, PointRead> {
    private final long positive;
    private final long negative;

    PointExpiry(Duration ttl, Duration negativeTtl) {
      this.positive = ttl.toNanos();
      this.negative = negativeTtl.toNanos();
    }

    @Override
    public long expireAfterCreate(String key, PointRead value, long currentTime) {
      return value.registration().isPresent() ? positive : negative;
    }

    @Override
    public long expireAfterUpdate(String key, PointRead value, long currentTime, long currentDuration) {
      return expireAfterCreate(key, value, currentTime);
    }

    @Override
    public long expireAfterRead(String key, PointRead value, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
