package dev.lake.query;

import dev.lake.query.model.PushdownStats;
import dev.lake.query.model.QueryDataException;
import dev.lake.query.model.QueryExecutionException;
import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import dev.lake.query.vector.VectorExecutor;
import dev.lake.query.vector.VectorRuntime;
import dev.lake.engine.DatasetNotFoundException;
import dev.lake.engine.EngineException;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.exec.AutoAnalyze;
import dev.lake.query.exec.DistinctValueEstimates;
import dev.lake.query.exec.PinnedTables;
import dev.lake.query.exec.PushdownCounters;
import dev.lake.query.exec.QueryResources;
import dev.lake.query.exec.StatementExecutor;
import dev.lake.query.guard.HeapCharge;
import dev.lake.query.guard.QueryGuard;
import dev.lake.query.plan.CompiledPlan;
import dev.lake.query.sql.Echo;
import dev.lake.query.sql.LiteralParameters;
import dev.lake.query.sql.StatementParser;
import dev.lake.registry.RegistryException;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.error.CodedFailure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * lake's read path: prepares and executes read-only SQL over registered Lance tables. Thread-safe.
 *
 * <p>Statements are validated once per (statement text, pins) and kept in a bounded plan cache
 * ({@link QueryOptions#planCacheSize()}): a repeated prepare resolves the statement's table references in the
 * catalog and, when they still resolve to the same registrations, answers without parsing; a repeated execution
 * with the same pins skips parsing and validation and only binds parameters, optimizes and runs (a statement without
 * parameters also reuses its compiled plan). A table that moves to another registration changes the key, so the
 * statement is validated again. Cached statements hold no Lance handle and no allocator.
 *
 * <p>Execution: a statement over one table runs whole in Lance's SQL engine when it does more than a scan
 * (aggregates, sorts, computed columns), or as one Lance scan whose batches pass through; other statements run in
 * Calcite's Enumerable runtime over single-table subtrees pushed into Lance and Lance scans (with runtime filters from
 * small join sides). A statement Lance rejects falls back to Calcite ({@link #pushdownStats()} counts both).
 * docs/performance.md describes the paths and their costs.
 *
 * <p>Time travel: {@code FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'} (a UTC instant) reads the
 * version that was current then per the registry's history, and {@code "t@v42"} reads registered version 42. Pins
 * are keyed by {@link TableReference#key()} ({@code t}, {@code t@v42}, {@code t@2026-01-01T00:00:00Z}), so one
 * statement may read a table at several versions.
 *
 * <p>Errors: a syntax or validation error, a disallowed statement, nesting too deep or a parameter that does not fit
 * is a {@link dev.lake.query.model.QueryRejectedException}; an unknown table, a version never registered or no longer retained (or a
 * pinned version that is gone) a {@link TableNotFoundException}; registry failures ({@link RegistryException}, e.g.
 * unavailable — never reported as an unknown table) and storage failures ({@link EngineException}) pass through;
 * anything else that goes wrong while planning or running is a {@link QueryExecutionException}. No {@link Error}
 * escapes.
 */
public final class QueryService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);
  /** Java-side memory for reading the schema of an older version while preparing a time-travel statement. */
  private static final long SCHEMA_READ_LIMIT = 64L << 20;
  /** The parameters of a statement the client sent without any. */
  private static final Schema NO_PARAMETERS = new Schema(List.of());

  private final Catalog catalog;
  private final TableEngine engine;
  private final QueryOptions options;
  private final StatementExecutor executor;
  private final PlanCache plans;
  private final PushdownCounters pushdown = new PushdownCounters();
  private final DistinctValueEstimates estimates;
  private final VectorRuntime vectorRuntime;
  private final dev.lake.query.spill.NodeSpill spill;
  private final VectorExecutor vectors;
  private AutoAnalyze analyze;

  public QueryService(Catalog catalog, TableEngine engine, QueryOptions options) {
    this(catalog, engine, options, VectorRuntime.forCores());
  }

  /** A service whose vectorized executor runs on {@code vectorRuntime}; {@link #close()} closes it. */
  public QueryService(Catalog catalog, TableEngine engine, QueryOptions options, VectorRuntime vectorRuntime) {
    this(catalog, engine, options, vectorRuntime, java.util.Optional.empty());
  }

  /**
   * A service whose vectorized executor runs on {@code vectorRuntime} ({@link #close()} closes it) and whose
   * distinct-value sketches are kept in {@code statistics} when given (a node restarted over the same directory
   * does not scan its tables for statistics again; the node's {@code <data.dir>/statistics}).
   */
  public QueryService(Catalog catalog, TableEngine engine, QueryOptions options, VectorRuntime vectorRuntime,
      java.util.Optional<java.nio.file.Path> statistics) {
    this.estimates = new DistinctValueEstimates(statistics.map(dev.lake.query.exec.KeptSketches::open)
        .orElse(dev.lake.query.exec.KeptSketches.NONE));
    this.vectorRuntime = Objects.requireNonNull(vectorRuntime, "vectorRuntime");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.options = Objects.requireNonNull(options, "options");
    this.spill = new dev.lake.query.spill.NodeSpill(options.spill().dir(), options.spill().queryLimit(),
        options.spill().nodeLimit());
    this.executor = new StatementExecutor(options.batchSize(), options.clock(), QueryService::translate, pushdown);
    this.plans = new PlanCache(options.planCacheSize());
    this.vectors = new VectorExecutor(vectorRuntime, options.batchSize());
  }

  /**
   * A background analysis of the table versions it is told of ({@link AutoAnalyze}, {@code query.auto-analyze}): it
   * fills this service's distinct-value estimates, so the first query over a new version does not sketch. Made once;
   * {@link #close()} stops it.
   *
   * @param allocator the parent of each analysis' allocator
   */
  public synchronized AutoAnalyze autoAnalyze(BufferAllocator allocator) {
    if (analyze == null) {
      analyze = new AutoAnalyze(engine, estimates, allocator, options.memoryLimitBytes());
    }
    return analyze;
  }

  /** Stops the background analysis and the vectorized executor's worker pool; executions still running fail. */
  @Override
  public void close() {
    AutoAnalyze analysis;
    synchronized (this) {
      analysis = analyze;
    }
    if (analysis != null) {
      analysis.close();
    }
    vectorRuntime.close();
  }

  /**
   * Parses {@code sql}, checks the read-only policy, resolves its table references in the catalog (the pins are
   * their current registrations, or the registered versions time travel asks for) and validates it — or finds it
   * validated for exactly these pins in the plan cache.
   *
   * @return the exact Arrow result schema {@link #execute} streams for these pins, and one parameter field per
   *     {@code ?}
   */
  public PreparedQuery prepare(String sql) {
    return validated(sql);
  }

  /**
   * {@link #prepare(String)}, with the heap that parsing and validating {@code sql} takes charged to a child of
   * {@code allocator} (an estimate from its length, {@link HeapCharge#planBytes}) for as long as it runs: a statement
   * too large for the query's or the node's memory limit is refused with RESOURCE_EXHAUSTED before it is parsed.
   */
  public PreparedQuery prepare(String sql, BufferAllocator allocator) {
    return prepare(sql, allocator, new QueryGuard());
  }

  /**
   * {@link #prepare(String, BufferAllocator)} for work {@code guard} may stop (the caller's planning deadline):
   * validation polls it for every call it validates or converts and fails with its
   * {@link dev.lake.query.guard.QueryStoppedException} once it is stopped.
   */
  public PreparedQuery prepare(String sql, BufferAllocator allocator, QueryGuard guard) {
    Objects.requireNonNull(allocator, "allocator");
    Objects.requireNonNull(guard, "guard");
    try (BufferAllocator planning = allocator.newChildAllocator("query-prepare", 0, options.memoryLimitBytes());
        HeapCharge charge = HeapCharge.of(planning, "parsing and validating this statement",
            HeapCharge.planBytes(sql))) {
      return validated(sql, guard);
    } catch (Throwable t) {
      throw failure(t, sql);
    }
  }

  private PreparedQuery validated(String sql) {
    return validated(sql, new QueryGuard());
  }

  private PreparedQuery validated(String sql, QueryGuard guard) {
    try {
      CatalogTables tables = new CatalogTables(catalog, this::versionSchema);
      Optional<LiteralParameters.Parameterized> auto = autoParameterized(sql);
      Optional<Prepared> shared = auto.isPresent() ? preparedShared(auto.get(), tables, guard) : Optional.empty();
      if (shared.isPresent()) {
        // the statement as the client wrote it: no parameters to bind; its values are bound at execution
        return new PreparedQuery(sql, shared.get().query().resultSchema(), NO_PARAMETERS, shared.get().query().pins());
      }
      return prepared(sql, tables, guard).query();
    } catch (Throwable t) {
      throw failure(t, sql);
    }
  }

  /** A prepared statement and the cached statement it came from. */
  private record Prepared(PreparedQuery query, CachedStatement statement) {}

  private Prepared prepared(String sql, CatalogTables tables, QueryGuard guard) {
    Optional<List<TableReference>> references = plans.references(sql);
    if (references.isPresent()) {
      Map<String, TablePin> pins = tables.pins(references.get());
      Optional<CachedStatement> cached = plans.get(sql, pins, statement -> tables.laterRegistrations(
          statement.validated().tables(), pins), false);
      if (cached.isPresent()) {
        // at these pins: reused across appends, it has older ones
        return new Prepared(cached.get().prepared(sql, pins), cached.get());
      }
    } else {
      plans.missed();
    }
    CachedStatement statement = CachedStatement.validate(sql, tables, options, guard);
    plans.put(sql, statement);
    return new Prepared(statement.prepared(sql), statement);
  }

  /**
   * The statement {@code auto} shares with other texts, when its literals are values of its parameters' types;
   * empty when they are not, or the parameterized text is refused (the text as written is then planned, and
   * reports its own errors).
   */
  private Optional<Prepared> preparedShared(LiteralParameters.Parameterized auto, CatalogTables tables,
      QueryGuard guard) {
    Prepared shared;
    try {
      shared = prepared(auto.text(), tables, guard);
    } catch (dev.lake.query.model.QueryRejectedException e) {
      return Optional.empty();
    }
    return auto.values(shared.statement().validated().parameterRowType()).map(values -> shared);
  }

  /** {@code sql} with its comparison literals as parameters, when auto-parameterization is on and it qualifies. */
  private Optional<LiteralParameters.Parameterized> autoParameterized(String sql) {
    return options.autoParameterize() && options.planCacheSize() > 0 ? plans.parameterized(sql) : Optional.empty();
  }

  /**
   * Plans {@code sql} against exactly {@code pins} (never "latest"), binds {@code parameters} and returns the
   * result stream. Batches are produced as the consumer calls {@code loadNextBatch()}; the schema equals
   * {@link #prepare}'s result schema for the same pins. The caller must close the reader (also to cancel): that
   * closes the scans and snapshots of the statement.
   *
   * @param pins the version of each table reference the statement reads, keyed as {@link PreparedQuery#pins()} is
   *     ({@link TableReference#key()}: {@code t}, {@code t@v42}, {@code t@2026-01-01T00:00:00Z})
   * @param parameters one value per {@code ?}: Long, Integer, Short, Byte, Double, Float, BigDecimal, String,
   *     Boolean, LocalDate, LocalTime, LocalDateTime, byte[], or null
   * @param allocator the parent of the statement's allocator; result batches live in a child of it
   */
  public ArrowReader execute(String sql, Map<String, TablePin> pins, List<Object> parameters,
      BufferAllocator allocator) {
    return execute(sql, pins, parameters, allocator, new QueryGuard());
  }

  /**
   * {@link #execute(String, Map, List, BufferAllocator)} for work {@code guard} may stop: planning (before every rule
   * it fires), Calcite's rows, the vectorized executor and the Lance scans poll it, and the stream fails with a
   * {@link dev.lake.query.guard.QueryStoppedException} once it is stopped. Parsing and planning charge an estimate of
   * their heap ({@link HeapCharge#planBytes}) to the statement's allocator while they run; the rows Calcite's
   * operators keep are charged as they arrive.
   */
  public ArrowReader execute(String sql, Map<String, TablePin> pins, List<Object> parameters,
      BufferAllocator allocator, QueryGuard guard) {
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(pins, "pins");
    Objects.requireNonNull(parameters, "parameters");
    Objects.requireNonNull(allocator, "allocator");
    List<Object> values = Collections.unmodifiableList(new ArrayList<>(parameters));
    QueryResources resources = null;
    CachedStatement executing = null;
    CachedStatement owner = null;
    String cacheText = sql; // the text the statement is cached under: sql, or sql auto-parameterized
    try {
      resources = new QueryResources(allocator, "lake-query", options.memoryLimitBytes(), guard, spill);
      guard.check();
      CompiledPlan plan;
      CachedStatement statement;
      Map<String, TablePin> keyed = PinnedTables.normalize(pins);
      PinnedTables tables;
      try (HeapCharge charge = HeapCharge.of(resources.allocator(), "parsing and planning this statement",
          HeapCharge.planBytes(sql))) {
        tables = new PinnedTables(keyed, engine, resources, options.batchSize(), pushdown, estimates, vectors);
        PinnedTables opening = tables;
        Optional<LiteralParameters.Parameterized> auto = values.isEmpty() ? autoParameterized(sql)
            : Optional.empty();
        Shared shared = auto.isPresent() ? shared(auto.get(), keyed, tables, guard) : null;
        statement = null;
        boolean validatedNow = false;
        if (shared != null) { // the same statement with the literals bound as its parameters
          statement = shared.statement();
          validatedNow = shared.validatedNow();
          values = shared.values();
          cacheText = auto.get().text();
        }
        if (statement == null) {
          statement = plans.get(sql, keyed, cached -> !cached.validated().explain()
              && opening.smallAppendsOf(cached.validated().tables()), true).orElse(null);
        }
        if (statement == null) {
          statement = CachedStatement.validate(sql, tables, options, guard);
          plans.put(sql, statement);
        } else if (validatedNow) {
          // validated just now over these tables: they are open and described
        } else if (statement.knownParameterized().isPresent() && !values.isEmpty()) {
          tables.openSources(statement.validated().tables()); // nothing is planned: the scan binds its values
        } else {
          tables.openAll(statement.validated().tables());
        }
        guard.check();
        List<Object> bound = statement.validated().explain() && values.isEmpty()
            && statement.validated().parameterCount() > 0 ? null : values;
        Optional<CompiledPlan> compiled = statement.tryCompile(bound, guard);
        if (compiled.isEmpty()) {
          // Another execution is planning with the cached statement: plan with a copy rather than wait (a spare kept
          // from an earlier such execution, else a fresh one), and keep the copy for the next time.
          plans.busy();
          CachedStatement primary = statement;
          CachedStatement copy = primary.spare();
          if (copy == null) {
            copy = CachedStatement.validate(cacheText, tables, options, guard);
          } else {
            tables.openAll(copy.validated().tables());
          }
          compiled = copy.tryCompile(bound, guard);
          if (compiled.isEmpty()) {
            copy = CachedStatement.validate(cacheText, tables, options, guard);
            compiled = copy.tryCompile(bound, guard);
          }
          compiled.ifPresent(found -> primary.remember(bound, found));
          primary.offerSpare(copy);
          owner = primary;
          statement = copy;
        }
        plan = compiled.orElseThrow();
        if (plan instanceof CompiledPlan.PassThrough && ((CompiledPlan.PassThrough) plan).bound()) {
          plans.bound();
        }
      }
      guard.check();
      LOG.debug("statement planned path={} tables={} sql={}", plan.path(), keyed.values(), Echo.of(sql));
      CachedStatement running = statement;
      CachedStatement keeping = owner == null ? statement : owner;
      executing = statement;
      return executor.stream(statement.validated(), plan, statement.planner(), tables.sources(), resources,
          failure -> translate(failure, running, keeping));
    } catch (Throwable t) {
      if (resources != null) {
        resources.close();
      }
      if (executing != null) {
        translate(t, executing, owner == null ? executing : owner);
      }
      throw failure(t, sql);
    }
  }

  /**
   * An execution's cached statement for {@code auto}'s text (found, or validated and cached now) with the values its
   * literals bind, when each is exactly a value of its parameter's type; null when one is not, or the parameterized
   * text is refused (the text as written is then planned, and reports its own errors).
   */
  private Shared shared(LiteralParameters.Parameterized auto, Map<String, TablePin> keyed, PinnedTables tables,
      QueryGuard guard) {
    CachedStatement statement = plans.get(auto.text(), keyed, cached -> tables.smallAppendsOf(cached.validated()
        .tables()), true).orElse(null);
    boolean fresh = statement == null;
    if (fresh) {
      try {
        statement = CachedStatement.validate(auto.text(), tables, options, guard);
      } catch (dev.lake.query.model.QueryRejectedException e) {
        return null;
      }
      plans.put(auto.text(), statement);
    }
    CachedStatement found = statement;
    return auto.values(statement.validated().parameterRowType())
        .map(values -> new Shared(found, Collections.unmodifiableList(values), fresh)).orElse(null);
  }

  /** A cached statement shared by texts that differ in literals, the values of one, and whether it was just made. */
  private record Shared(CachedStatement statement, List<Object> values, boolean validatedNow) {}

  /** How many subtrees and whole statements ran in Lance's SQL engine, and how many fell back to Calcite. */
  public PushdownStats pushdownStats() {
    return pushdown.stats();
  }

  /** Hits, misses and the heap held by the vectorized executor's column cache ({@code query.column-cache}). */
  /** What operators spilled to disk since this service started (bytes, files, queries) and what is there now. */
  public dev.lake.query.spill.NodeSpill.Stats spillStats() {
    return spill.stats();
  }

  /**
   * Deletes what an earlier process left in the spill directory (a crash mid-query); call before any query runs,
   * and only when no other service spills to the same directory.
   */
  public void cleanSpillDirectory() {
    spill.clean();
  }

  public dev.lake.query.vector.ColumnCache.Stats columnCacheStats() {
    return vectorRuntime.cache().stats();
  }

  /** Hits and misses of the plan cache. */
  public PlanCacheStats planCacheStats() {
    return plans.stats();
  }

  /** The bytes the plan cache's statements are estimated to retain now (at most {@code query.plan-cache-size}). */
  public long planCacheBytes() {
    return plans.weightedBytes();
  }

  /** The stored schema of an older version (time travel may cross a replace that changed it). */
  private Schema versionSchema(TablePin pin) {
    try (BufferAllocator schemaAllocator = new RootAllocator(SCHEMA_READ_LIMIT);
        TableSnapshot snapshot = engine.open(pin.location(), pin.version(), schemaAllocator)) {
      return snapshot.schema();
    } catch (DatasetNotFoundException e) {
      throw new TableNotFoundException(pin.name(), "version " + pin.version() + " of table '" + pin.name()
          + "' is registered but its files are gone (cleaned up after the retention window); read a newer version");
    }
  }

  private static RuntimeException failure(Throwable t, String sql) {
    RuntimeException translated = translate(t);
    if (translated instanceof QueryExecutionException && !(translated instanceof QueryDataException)) {
      LOG.warn("statement failed sql={} error={}", Echo.of(sql), translated.getMessage(), t);
    } else {
      LOG.debug("statement refused sql={} error={}", Echo.of(sql), translated.getMessage());
    }
    return translated;
  }

  /**
   * The one place where failures become lake's exception types: lake's typed failures pass through (every one states
   * its status), a runtime data error of SQL evaluation becomes a {@link QueryDataException}, a stack overflow the
   * nesting rejection, and anything else is a bug: a {@link QueryExecutionException} (INTERNAL).
   */
  static RuntimeException translate(Throwable t) {
    if ((t instanceof CodedFailure && t instanceof RuntimeException)
        || t instanceof OutOfMemoryException) {
      return (RuntimeException) t;
    }
    if (t instanceof StackOverflowError) {
      return StatementParser.tooDeep();
    }
    Optional<QueryDataException> data = DataErrors.of(t);
    if (data.isPresent()) {
      return data.get();
    }
    return new QueryExecutionException("the statement failed unexpectedly (" + t.getClass().getSimpleName()
        + ": " + Echo.of(String.valueOf(t.getMessage())) + "); this is a bug in lake, report it with the statement",
        t);
  }

  /**
   * Translates a failure of one execution; when generated code failed in its class initializer (a constant
   * expression such as {@code 1/0}), the statement's compiled plan is forgotten, so the next execution compiles
   * afresh and meets the same data error again rather than a class that can no longer be initialized.
   */
  private static RuntimeException translate(Throwable t, CachedStatement... statements) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ExceptionInInitializerError || c instanceof NoClassDefFoundError) {
        for (CachedStatement statement : statements) {
          statement.forgetCompiled(); // the copy that compiled the plan, and the cached statement keeping it
        }
        break;
      }
    }
    return translate(t);
  }
}
