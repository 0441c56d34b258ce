package dev.lake.flight;

import dev.lake.flight.grpc.GrpcHooks;
import dev.lake.flight.grpc.StatusMapper;
import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.TableEngine;
import dev.lake.flight.auth.BearerTokens;
import dev.lake.flight.auth.LakeAuthenticator;
import dev.lake.flight.auth.LoginGuard;
import dev.lake.flight.auth.Signer;
import dev.lake.flight.cluster.ClusterNode;
import dev.lake.flight.cluster.Forwarding;
import dev.lake.flight.config.LakeConfig;
import dev.lake.flight.metadata.FlightSqlMetadata;
import dev.lake.flight.limits.QueryLimits;
import dev.lake.flight.metrics.LakeMetrics;
import dev.lake.flight.metrics.LoginMeters;
import dev.lake.flight.metrics.NodeProbes;
import dev.lake.flight.metrics.ObservabilityServer;
import dev.lake.flight.namespace.NamespaceActions;
import dev.lake.flight.namespace.NamespaceServer;
import dev.lake.flight.namespace.TableResolver;
import dev.lake.flight.metrics.QueryEvents;
import dev.lake.flight.metrics.Readiness;
import dev.lake.flight.metrics.SlowQueryLog;
import dev.lake.flight.session.ClosedSessions;
import dev.lake.flight.session.SessionMiddleware;
import dev.lake.flight.session.SessionOptionsHandler;
import dev.lake.flight.session.SessionTokens;
import dev.lake.flight.metadata.TableInfo;
import dev.lake.flight.security.DataRootAllowlist;
import dev.lake.flight.security.DataRootGuard;
import dev.lake.flight.security.InternalTransport;
import dev.lake.flight.security.TransportSecurity;
import dev.lake.flight.spool.ResultSpool;
import dev.lake.flight.spool.SpoolQuota;
import dev.lake.flight.storage.DataStorage;
import dev.lake.flight.storage.Registries;
import dev.lake.flight.storage.RegistryBackend;
import dev.lake.flight.storage.StartupCheckException;
import dev.lake.flight.ticket.SpoolTokens;
import dev.lake.flight.ticket.TicketCodec;
import dev.lake.metasrv.Maintenance;
import dev.lake.metasrv.Leadership;
import dev.lake.metasrv.MaintenanceScheduler;
import dev.lake.metasrv.SingleNodeLeadership;
import dev.lake.metasrv.TableLocations;
import dev.lake.metasrv.TableLocks;
import dev.lake.metasrv.IngestRequest;
import dev.lake.metasrv.WriteCoordinator;
import dev.lake.metasrv.WriteResult;
import dev.lake.metasrv.WriteInterceptor;
import dev.lake.query.QueryOptions;
import dev.lake.query.QueryService;
import dev.lake.query.CachingCatalog;
import dev.lake.query.vector.ColumnCache;
import dev.lake.query.vector.VectorRuntime;
import dev.lake.registry.MetaStore;
import dev.lake.registry.RegistrationListener;
import dev.lake.registry.RegistryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lake node: registry, engine, write coordinator, catalog, query service and the Flight SQL endpoint, wired
 * from a {@link LakeConfig}. Storage: tables on local disk or S3 ({@link DataStorage}, checked at start-up), the
 * registry in RocksDB under the data directory or in DynamoDB ({@link Registries}, checked at start-up). With
 * RocksDB this process takes the lease at start-up and is always the leader; with DynamoDB it is a cluster node
 * ({@link ClusterNode}): it campaigns for the lease, forwards writes to the leader while it follows, and serves
 * forwarded writes on its internal endpoint while it leads.
 */
public final class LakeServer implements AutoCloseable, dev.lake.flight.demo.DemoDataset.Target {
  private static final Logger LOG = LoggerFactory.getLogger(LakeServer.class);
  public static final String VERSION = "0.1.0";

  private final LakeConfig config;
  private final BufferAllocator allocator;
  private final BufferAllocator queryAllocator;
  private final MetaStore store;
  private final TableEngine engine;
  private final DataStorage storage;
  private final FlightServer server;
  private final CachingCatalog catalog;
  private final WriteCoordinator writes;
  private final QueryService query;
  private final Maintenance maintenance;
  private final MaintenanceScheduler scheduler;
  private final ClusterNode cluster;
  private final QueryLimits limits;
  private final ResultSpool spool;
  private final LakeMetrics metrics;
  private final Readiness readiness;
  private final StartupWarmup warmup;
  private final Thread warmupThread;
  /** Counted down when the first warm-up attempt ended; {@link #start()} waits for it (bounded). */
  private final java.util.concurrent.CountDownLatch firstWarmup = new java.util.concurrent.CountDownLatch(1);
  /** The most {@link #start()} waits for the first warm-up attempt (a hanging store must not hang start-up). */
  private static final long WARMUP_WAIT_SECONDS = 120;
  private final long constructed;
  private ObservabilityServer observability;
  private final TableResolver resolver;
  private final BearerTokens tokens;
  /** The node's failed-login guard: Flight's Basic logins and the namespace's go through the same one. */
  private final LoginGuard logins;
  private NamespaceServer namespace;

  private LakeServer(Builder b) {
    long opening = System.nanoTime();
    this.config = b.config;
    StartupChecks.checkBindAllowed(config);
    TransportSecurity.checkListenAddress(config.host(), config.security());
    OpenedResources opened = new OpenedResources(); // a later step that fails closes all of it
    try {
      this.allocator = opened.add(new RootAllocator());
      try {
        Files.createDirectories(config.dataDir());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create the data directory " + config.dataDir(), e);
      }
      Clock clock = b.clock;
      this.storage = opened.add(DataStorage.open(config.dataRoot(), config.storage().s3()));
      this.store = opened.add(b.wrapStore.apply(b.metaStore != null ? b.metaStore
          : Registries.open(config.storage(), config.dataDir())));
      this.engine = opened.add(new DataRootGuard(b.wrapEngine.apply(new LanceTableEngine(allocator.newChildAllocator(
          "engine", 0, Long.MAX_VALUE), storage.lanceOptions(), storage.objectStores())),
          new DataRootAllowlist(config.dataRoot())));
      StartupChecks.warnOnClusterMismatch(config, storage);
      String address = config.host() + ":" + config.port();
      // DynamoDB: a cluster node campaigns for the lease (ClusterNode); RocksDB: one process, the lease taken now.
      this.cluster = config.storage().registry() == RegistryBackend.DYNAMODB
          ? ClusterNode.clustered(config.cluster(), store, config.nodeId(), clock)
          : ClusterNode.single(takeLease(store, config.nodeId(), address));
      opened.add(cluster);
      Leadership leadership = cluster.leadership();
      TableLocks locks = new TableLocks(config.lockTimeout().toMillis());
      TableLocations locations = new TableLocations(config.dataRoot());
      // Read-your-writes, wired once: the catalog hears of every registration this node's writes make (and, on a
      // follower, of what the leader registered for it) from the write path itself, never from a request handler.
      this.catalog = opened.add(CachingCatalog.start(store, config.catalog()));
      QueryOptions queryOptions = new QueryOptions(config.batchRows(), config.queryMemoryLimit(), clock,
          config.planCacheSize(), true, config.queryExecutor()).withStatementLimits(config.statementLimits())
          .withSpill(config.spill()).withAutoParameterize(config.autoParameterize())
          .withVectorizedMaxGroups(config.vectorizedMaxGroups());
      QueryService query = opened.add(new QueryService(catalog, engine, queryOptions,
          VectorRuntime.forCores(new ColumnCache(config.columnCacheBytes())),
          java.util.Optional.of(config.dataDir().resolve("statistics"))));
      this.query = query;
      // query.auto-analyze: every registration is also queued for a background statistics analysis
      dev.lake.query.exec.AutoAnalyze autoAnalyze = config.autoAnalyze() ? query.autoAnalyze(allocator) : null;
      RegistrationListener analysis = autoAnalyze == null ? RegistrationListener.NONE : autoAnalyze;
      RegistrationListener registrations = RegistrationListener.all(catalog, analysis);
      this.writes = new WriteCoordinator(store, engine, leadership, locks, locations, allocator, clock,
          b.interceptor, registrations);
      this.maintenance = new Maintenance(store, engine, leadership, locks, locations, clock, config.maintenance(),
          b.interceptor, registrations);
      this.scheduler = new MaintenanceScheduler(store, maintenance, leadership);
      query.cleanSpillDirectory();
      Signer signer = new Signer(ClusterSecret.resolve(config.clusterSecret(), config.dataDir()));
      InternalTransport internalTransport = InternalTransport.of(config.security(), config.guard());
      Forwarding forwarding = cluster.forwarding(signer, allocator, clock, internalTransport, catalog);
      this.limits = opened.add(new QueryLimits(config.limits(), System::nanoTime, clock, StatusMapper::toStatus,
          config.guard().maxConcurrentPerUser(), config.guard().writeStallTimeout()));
      this.metrics = opened.add(new LakeMetrics(config.nodeId(), new NodeProbes(() -> limits.admission().running(),
          () -> limits.admission().queued(), catalog::stats, cluster::isLeader, cluster::observedTerm,
          query::pushdownStats, query::columnCacheStats, query::spillStats)));
      this.warmup = new StartupWarmup(catalog, query, allocator, System::nanoTime,
          StartupWarmup.executorPhase(config.dataDir().resolve("warmup"), config.warmupRows(),
              queryOptions, allocator), autoAnalyze == null ? registration -> { } : autoAnalyze::queue);
      this.readiness = new Readiness(store::lease, new Readiness.LeaderView() {
        @Override
        public boolean isLeader() {
          return cluster.isLeader();
        }

        @Override
        public Optional<String> knownLeader() {
          return forwarding.target().map(Forwarding.Target::nodeId);
        }
      }, warmup::pending);
      opened.add(readiness);
      QueryEvents events = new QueryEvents(metrics, new SlowQueryLog(config.log().slowQueryThreshold()),
          System::nanoTime);
      IngestHandler ingest = new IngestHandler(writes, allocator, config.ingestMemoryLimit(), forwarding,
          events, limits.idleStreams());
      this.resolver = new TableResolver(catalog, store, storage.lanceOptions(), storage.isS3(), clock,
          config.namespace());
      AdminActions actions = new AdminActions(writes, maintenance, store, leadership, config.nodeId(),
          forwarding, new NamespaceActions(resolver), warmup::pending);
      cluster.internalEndpoint(allocator, config.host(), signer, clock, config.users(), ingest, actions,
          internalTransport);
      FlightSqlMetadata metadata = new FlightSqlMetadata(
          () -> catalog.tables().stream().map(TableInfo::of).toList(), VERSION);
      // Every query's allocator is a child of this one: its limit bounds the node's queries together (their Arrow
      // buffers and the heap charged for their operators and plans, query.node-memory-limit), PollFlightInfo jobs too.
      this.queryAllocator = opened.add(allocator.newChildAllocator("queries", 0, config.queryNodeMemoryLimit()));
      this.spool = opened.add(ResultSpool.open(config.results(), config.storage().s3(), new SpoolTokens(signer, clock),
          StatementStreams.spoolRunner(query, events), limits, queryAllocator, clock, System::nanoTime,
          StatusMapper::toStatus, config.nodeId(), config.dataDir().resolve("spool-tmp"),
          new SpoolQuota(config.guard().spoolMaxBytes(), config.guard().spoolMaxBytesPerUser(), clock)));
      ClosedSessions closedSessions = new ClosedSessions();
      LakeFlightSqlProducer producer = new LakeFlightSqlProducer(query, metadata,
          ingest, actions,
          new TicketCodec(signer, clock), new Access(config.users()), queryAllocator, clock, config.ticketLifetime(),
          limits, spool, events, new SessionOptionsHandler(closedSessions),
          config.streams());
      this.logins = new LoginGuard(config.guard(), System::nanoTime);
      LoginMeters.bind(metrics.registry(), logins);
      this.tokens = new BearerTokens(signer, clock, config.tokenLifetime());
      FlightServer.Builder flight = FlightServer.builder(allocator,
              TransportSecurity.location(config.host(), config.port(), config.security()), producer)
          .headerAuthenticator(new LakeAuthenticator(config.users(), tokens, config.security().mutualTls(), logins))
          .middleware(SessionMiddleware.KEY, new SessionMiddleware.Factory(new SessionTokens(signer), closedSessions));
      TransportSecurity.configure(flight, config.security(), GrpcHooks.consumer());
      TransportSecurity.limit(flight, config.guard());
      this.server = opened.add(flight.build());
      this.warmupThread = new Thread(this::warmUp, "lake-warmup");
      warmupThread.setDaemon(true);
      LOG.info("start-up phase=open took={}ms node={} registry={}", (System.nanoTime() - opening) / 1_000_000,
          config.nodeId(), store.describe());
      this.constructed = System.nanoTime();
    } catch (RuntimeException | Error e) {
      opened.closeAll(e);
      throw e;
    }
  }

  /** Warms the node up (catalog, Lance, one real query) before it reports ready; retried every 5 s (bounded). */
  private void warmUp() {
    for (int attempt = 1; attempt <= 720 && !Thread.currentThread().isInterrupted(); attempt++) {
      boolean warmed = warmup.run();
      firstWarmup.countDown();
      if (warmed) {
        return;
      }
      try {
        Thread.sleep(5_000);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  public static Builder builder(LakeConfig config) {
    return new Builder(config);
  }

  public LakeServer start() throws IOException {
    try {
      server.start();
      cluster.start(config.host(), server.getPort());
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    LOG.info("start-up phase=listen took={}ms node={} leader={}", (System.nanoTime() - constructed) / 1_000_000,
        config.nodeId(), cluster.isLeader());
    scheduler.start(config.maintenanceInterval());
    spool.startSweeper();
    if (config.metrics().enabled()) {
      try {
        observability = ObservabilityServer.start(config.metrics(), metrics, readiness);
      } catch (IOException | RuntimeException e) {
        close();
        throw new IOException("cannot bind the metrics endpoint " + config.metrics().host() + ":"
            + config.metrics().port() + " (metrics.host / metrics.port): " + e.getMessage(), e);
      }
    }
    if (config.namespace().enabled()) {
      try {
        namespace = NamespaceServer.start(config.namespace(), config.security(), config.users(), tokens, logins,
            resolver);
      } catch (IOException | RuntimeException e) {
        close();
        throw new IOException("cannot start the Lance REST namespace on " + config.namespace().host() + ":"
            + config.namespace().port() + " (namespace.host / namespace.port): " + e.getMessage(), e);
      }
    }
    // Ready means "a query of a registered table is answered now": warm up before saying so (docs/operations.md).
    // The endpoints already answer meanwhile (/ready and lake.status say what is still warming up).
    warmupThread.start();
    try {
      if (!firstWarmup.await(WARMUP_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
        LOG.warn("start-up warm-up still running after {}s node={}; not ready until it ends: {}", WARMUP_WAIT_SECONDS,
            config.nodeId(), warmup.pending().orElse("done"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("lake listening node={} address={}:{} dataDir={} dataRoot={} registry={}", config.nodeId(),
        config.host(), server.getPort(), config.dataDir(), storage.describe(), store.describe());
    return this;
  }

  public int port() {
    return server.getPort();
  }

  /** The port of the metrics, health and readiness endpoint; empty when {@code metrics.enabled} is false. */
  public OptionalInt metricsPort() {
    return observability == null ? OptionalInt.empty() : OptionalInt.of(observability.port());
  }

  /** The port of the Lance REST Namespace endpoint; empty when {@code namespace.enabled} is false. */
  public OptionalInt namespacePort() {
    return namespace == null ? OptionalInt.empty() : OptionalInt.of(namespace.port());
  }

  /** This node's meters (also served on {@code /metrics} when enabled). */
  public LakeMetrics metrics() {
    return metrics;
  }

  /** True while this node's write gate is open (always on a single node). */
  public boolean isLeader() {
    return cluster.isLeader();
  }

  public String host() {
    return config.host();
  }

  public MetaStore metaStore() {
    return store;
  }

  /**
   * Ingests the batches {@code source} makes (in an allocator of this node, bounded by {@code ingest.memory-limit})
   * through this node's write coordinator, the path bulk ingest takes on the leader, and publishes the new version
   * to this node's catalog. Used by {@code --demo}; clients use Flight SQL bulk ingest.
   */
  public WriteResult ingest(IngestRequest request, Function<BufferAllocator, ArrowReader> source) {
    try (BufferAllocator ingestAllocator = allocator.newChildAllocator("ingest-" + request.table(), 0,
        config.ingestMemoryLimit())) {
      return writes.ingest(request, source.apply(ingestAllocator)); // closes the reader; tells the catalog
    }
  }

  /** The node's root allocator (an in-process writer's batches must come from it: tests). */
  public BufferAllocator allocator() {
    return allocator;
  }

  /** This node's write coordinator (ingest, drop): what a leader runs every write through. */
  public WriteCoordinator writes() {
    return writes;
  }

  /** Compaction, retention and garbage collection of this node (also run in the background). */
  public Maintenance maintenance() {
    return maintenance;
  }

  /** Lance datasets, scanners and readers this node holds open right now. */
  public long openHandles() {
    return engine.openHandles();
  }

  /** Arrow memory held right now by running queries (and results still queued for clients). */
  public long queryMemory() {
    return allocator.getChildAllocators().stream().filter(a -> a.getName().startsWith("query"))
        .mapToLong(BufferAllocator::getAllocatedMemory).sum();
  }

  /** The data root table locations live under. */
  public String dataRoot() {
    return config.dataRoot();
  }

  /** This node's heavy-result spool (PollFlightInfo jobs, spooled results and their expiry sweep). */
  public ResultSpool resultSpool() {
    return spool;
  }

  /** This node's read-path limits: admission (running and queued queries) and the running-query registry. */
  public QueryLimits queryLimits() {
    return limits;
  }

  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  @Override
  public void close() {
    if (namespace != null) {
      namespace.close();
    }
    if (observability != null) {
      observability.close();
    }
    warmupThread.interrupt();
    readiness.close();
    scheduler.close();
    try {
      server.shutdown();
      server.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      server.close();
    } catch (Exception e) {
      LOG.warn("closing the Flight server failed", e);
    }
    cluster.close();
    spool.close();
    limits.close();
    metrics.close();
    query.close();
    catalog.close();
    engine.close();
    store.close();
    storage.close();
    try {
      queryAllocator.close();
      allocator.close();
    } catch (IllegalStateException e) {
      // A shutting-down server must finish; report what is still referenced (known: Arrow's C-data import keeps
      // a few bytes after an allocation failure mid-import).
      LOG.error("Arrow memory still referenced at shutdown node={} bytes={} detail={}", config.nodeId(),
          allocator.getAllocatedMemory(), e.getMessage());
    }
    LOG.info("lake stopped node={}", config.nodeId());
  }

  /**
   * Takes the lease at start-up (single-node leadership, RocksDB); a registry that refuses it fails the start with
   * a message saying so.
   */
  private static SingleNodeLeadership takeLease(MetaStore store, String nodeId, String address) {
    try {
      return SingleNodeLeadership.takeLease(store, nodeId, address);
    } catch (RegistryException e) {
      String registry = store.describe();
      throw new StartupCheckException("taking the leader lease in the registry " + registry + " failed: "
          + e.getMessage(), e);
    }
  }

  /** Wiring with test seams: a registry wrapper (fault injection), a write interceptor, a clock. */
  public static final class Builder {
    private final LakeConfig config;
    private MetaStore metaStore;
    private Function<MetaStore, MetaStore> wrapStore = Function.identity();
    private Function<TableEngine, TableEngine> wrapEngine = Function.identity();
    private WriteInterceptor interceptor = WriteInterceptor.NONE;
    private Clock clock = Clock.systemUTC();

    private Builder(LakeConfig config) {
      this.config = config;
    }

    public Builder metaStore(MetaStore store) {
      this.metaStore = store;
      return this;
    }

    public Builder wrapMetaStore(Function<MetaStore, MetaStore> wrap) {
      this.wrapStore = wrap;
      return this;
    }

    /** Wraps the real engine (tests: steer time or inject faults around real Lance). */
    public Builder wrapEngine(Function<TableEngine, TableEngine> wrap) {
      this.wrapEngine = wrap;
      return this;
    }

    public Builder writeInterceptor(WriteInterceptor interceptor) {
      this.interceptor = interceptor;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    public LakeServer build() {
      return new LakeServer(this);
    }
  }
}
