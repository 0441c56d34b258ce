package dev.lake.query;

import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import dev.lake.query.plan.types.ArrowTypeMapping;
import dev.lake.query.plan.CompiledPlan;
import dev.lake.query.plan.ParameterizedScan;
import dev.lake.query.plan.StatementPlanner;
import dev.lake.query.plan.TableResolver;
import dev.lake.query.plan.ValidatedStatement;
import dev.lake.query.sql.StatementParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * A statement parsed, policy-checked and validated against fixed pins, ready to be planned per execution: what the
 * plan cache keeps. It holds no Lance handle and no allocator (its tables carry pins and schemas only; each
 * execution binds its own scan sources). Parameters are bound per execution before optimizing (so filters on them
 * reach Lance); a statement without parameters keeps its compiled plan too.
 *
 * <p>Calcite's planner is not thread-safe, so one execution at a time plans with it ({@link #tryCompile} refuses
 * while another does; the caller then validates a private copy). Compiled plans are shared freely.
 */
final class CachedStatement {
  private final StatementPlanner planner;
  private final ValidatedStatement validated;
  private final Schema parameterSchema;
  private final List<TableReference> references;
  private final ReentrantLock planning = new ReentrantLock();
  private volatile CompiledPlan parameterless;
  /** null: not planned yet; {@link #NO_TEMPLATE}: the statement has no parameterized scan; else its scan. */
  private volatile Object template;
  private static final Object NO_TEMPLATE = new Object();
  /**
   * Plans compiled for the most recent parameter values (a dashboard's prepared statement is sent with the same few
   * values again and again): a plan binds its values as literals, so one compiled for equal values is the same plan.
   */
  private final Map<List<Object>, CompiledPlan> byValues = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<Object>, CompiledPlan> eldest) {
          return size() > VALUE_PLANS;
        }
      });
  /** Validated copies planning no execution right now, for executions that find this one busy. */
  private final java.util.concurrent.ConcurrentLinkedQueue<CachedStatement> spares =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final java.util.concurrent.atomic.AtomicInteger spareCount = new java.util.concurrent.atomic.AtomicInteger();
  private static final int VALUE_PLANS = 64;
  private static final int MAX_SPARES = 3;

  private CachedStatement(StatementPlanner planner, ValidatedStatement validated) {
    this.planner = planner;
    this.validated = validated;
    this.parameterSchema = parameterSchema(validated);
    this.references = List.copyOf(planner.references());
  }

  /**
   * Parses, checks and validates {@code sql} with the tables {@code resolver} gives.
   *
   * @param options whether its plans push single-table subtrees down whole, and into which engine
   */
  static CachedStatement validate(String sql, TableResolver resolver, QueryOptions options) {
    return validate(sql, resolver, options, new dev.lake.query.guard.QueryGuard());
  }

  /** {@link #validate(String, TableResolver, QueryOptions)} for work {@code guard} may stop. */
  static CachedStatement validate(String sql, TableResolver resolver, QueryOptions options,
      dev.lake.query.guard.QueryGuard guard) {
    StatementPlanner planner = new StatementPlanner(resolver, options.subtreePushDown(), options.executor(),
        options.vectorizedMaxGroups());
    org.apache.calcite.sql.SqlNode parsed = StatementParser.parse(sql, options.statementLimits());
    guard.check();
    ValidatedStatement validated = planner.validate(parsed, guard);
    return new CachedStatement(planner, validated);
  }

  StatementPlanner planner() {
    return planner;
  }

  ValidatedStatement validated() {
    return validated;
  }

  /** Every table reference validation looked up, found or not. */
  List<TableReference> references() {
    return references;
  }

  /** The pins the statement was validated against, by reference key. */
  Map<String, TablePin> pins() {
    Map<String, TablePin> pins = new HashMap<>();
    validated.tables().forEach((key, table) -> pins.put(key, table.pin()));
    return pins;
  }

  PreparedQuery prepared(String sql) {
    return prepared(sql, pins());
  }

  /** The prepared statement at {@code pins}: those it was validated for, or small appends of them. */
  PreparedQuery prepared(String sql, Map<String, TablePin> pins) {
    return new PreparedQuery(sql, validated.resultSchema(), parameterSchema, pins);
  }

  /**
   * The plan of one execution with {@code parameters} bound (null: unbound, EXPLAIN only), or empty when another
   * execution is planning with this statement right now.
   */
  /** Drops the compiled plan kept for reuse (its generated class failed to initialize). */
  void forgetCompiled() {
    parameterless = null;
    byValues.clear();
  }

  Optional<CompiledPlan> tryCompile(List<Object> parameters) {
    return tryCompile(parameters, new dev.lake.query.guard.QueryGuard());
  }

  /** {@link #tryCompile(List)} for an execution {@code guard} may stop while it plans. */
  Optional<CompiledPlan> tryCompile(List<Object> parameters, dev.lake.query.guard.QueryGuard guard) {
    boolean reusable = validated.parameterCount() == 0;
    if (!reusable && parameters != null) {
      Optional<CompiledPlan.PassThrough> bound = parameterized(guard).flatMap(scan -> scan.bind(parameters));
      if (bound.isPresent()) {
        return Optional.of(bound.get());
      }
    }
    CompiledPlan compiled = reusable ? parameterless : known(parameters).orElse(null);
    if (compiled != null) {
      return Optional.of(compiled);
    }
    if (!planning.tryLock()) {
      return Optional.empty();
    }
    try {
      compiled = planner.compile(validated, parameters, guard);
      if (reusable) {
        parameterless = compiled;
      } else {
        remember(parameters, compiled);
      }
      return Optional.of(compiled);
    } finally {
      planning.unlock();
    }
  }

  /**
   * The statement planned once with its parameters unbound, when that plan is a pass-through scan that binds them at
   * execution ({@link ParameterizedScan}); planned by the first execution that finds the planner free, and kept.
   * Empty while no execution has planned it, and for every other statement.
   */
  Optional<ParameterizedScan> parameterized(dev.lake.query.guard.QueryGuard guard) {
    Object known = template;
    if (known == null && planning.tryLock()) {
      try {
        known = template;
        if (known == null) {
          try {
            known = planner.parameterized(validated, guard).<Object>map(scan -> scan).orElse(NO_TEMPLATE);
          } catch (dev.lake.query.guard.QueryStoppedException e) {
            throw e;
          } catch (RuntimeException | AssertionError e) {
            known = NO_TEMPLATE; // the statement is planned with its values as literals, as before
          }
          template = known;
        }
      } finally {
        planning.unlock();
      }
    }
    return known instanceof ParameterizedScan ? Optional.of((ParameterizedScan) known) : Optional.empty();
  }

  /** The parameterized scan if one was planned already (nothing is planned here). */
  Optional<ParameterizedScan> knownParameterized() {
    Object known = template;
    return known instanceof ParameterizedScan ? Optional.of((ParameterizedScan) known) : Optional.empty();
  }

  /** The plan compiled earlier for exactly these parameter values, if it is still kept. */
  Optional<CompiledPlan> known(List<Object> parameters) {
    return cacheable(parameters) ? Optional.ofNullable(byValues.get(parameters)) : Optional.empty();
  }

  /** Keeps {@code plan}, compiled for {@code parameters} (by this statement or a copy of it), for equal values. */
  void remember(List<Object> parameters, CompiledPlan plan) {
    if (cacheable(parameters) && !(plan instanceof CompiledPlan.Explain)) {
      byValues.put(java.util.Collections.unmodifiableList(new ArrayList<>(parameters)), plan);
    }
  }

  /** Values with value equality only (no arrays); null means "unbound" (EXPLAIN), never kept. */
  private static boolean cacheable(List<Object> parameters) {
    if (parameters == null || parameters.isEmpty()) {
      return false;
    }
    for (Object v : parameters) {
      if (v != null && !(v instanceof Number || v instanceof String || v instanceof Boolean
          || v instanceof java.time.temporal.Temporal)) {
        return false;
      }
    }
    return true;
  }

  /** A validated copy of this statement that no execution is planning with, or null. Give it back after use. */
  CachedStatement spare() {
    CachedStatement spare = spares.poll();
    if (spare != null) {
      spareCount.decrementAndGet();
    }
    return spare;
  }

  /** Keeps {@code copy} (validated for the same SQL and pins) for a later execution that finds this one busy. */
  void offerSpare(CachedStatement copy) {
    if (copy != this && spareCount.incrementAndGet() <= MAX_SPARES) {
      spares.add(copy);
    } else {
      spareCount.decrementAndGet();
    }
  }

  /**
   * The parameters' Arrow types as clients are told them. A TIME or TIMESTAMP parameter is announced in milliseconds
   * whatever its precision: the Flight SQL JDBC driver (18.3.0) writes a {@code java.sql.Timestamp} or {@code Time}'s
   * milliseconds into a vector of the announced unit without scaling them, so a microsecond announcement made
   * {@code 2020-01-01 00:00:00.123} arrive as {@code 1970-01-19 06:17:16.800123}. A client that sends its own batch
   * (pyarrow, ADBC) may send any unit: a parameter is coerced exactly to its SQL type from whatever unit arrives
   * (docs/api.md, "Prepared statements").
   */
  private static Schema parameterSchema(ValidatedStatement statement) {
    List<Field> fields = new ArrayList<>();
    for (RelDataTypeField parameter : statement.parameterRowType().getFieldList()) {
      String name = "parameter_" + (parameter.getIndex() + 1);
      fields.add(ArrowTypeMapping.field(name, inMilliseconds(ArrowTypeMapping.toArrowType(name, parameter.getType())),
          true));
    }
    return new Schema(fields);
  }

  private static org.apache.arrow.vector.types.pojo.ArrowType inMilliseconds(
      org.apache.arrow.vector.types.pojo.ArrowType type) {
    if (type instanceof org.apache.arrow.vector.types.pojo.ArrowType.Timestamp timestamp) {
      return new org.apache.arrow.vector.types.pojo.ArrowType.Timestamp(
          org.apache.arrow.vector.types.TimeUnit.MILLISECOND, timestamp.getTimezone());
    }
    if (type instanceof org.apache.arrow.vector.types.pojo.ArrowType.Time) {
      return new org.apache.arrow.vector.types.pojo.ArrowType.Time(
          org.apache.arrow.vector.types.TimeUnit.MILLISECOND, 32);
    }
    return type;
  }
}
