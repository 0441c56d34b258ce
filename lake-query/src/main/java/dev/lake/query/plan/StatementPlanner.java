package dev.lake.query.plan;

import dev.lake.query.plan.enumerable.ExactRuntime;
import dev.lake.query.plan.enumerable.RuntimeChecks;
import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.rules.CorrelatedSemiJoins;
import dev.lake.query.plan.rules.OuterJoinCounts;
import dev.lake.query.plan.rules.PlanRules;
import dev.lake.query.plan.runtime.RuntimeFilterPlanner;
import dev.lake.query.plan.stats.LakeRelMdDistinctRowCount;
import dev.lake.query.plan.stats.LakeRelMdRowCount;
import dev.lake.query.plan.types.LakeTypeFactory;
import dev.lake.query.plan.vector.ColumnCacheScans;
import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.model.TableReference;
import dev.lake.query.guard.QueryGuard;
import dev.lake.query.sql.Echo;
import dev.lake.registry.TableNotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.calcite.DataContexts;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableInterpretable;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RuleSets;

/**
 * Plans one statement: validation against the tables its {@link TableResolver} gives, conversion to relational
 * algebra, then (for execution) parameter binding, rewriting, join ordering, the choice of the engine of each part
 * ({@link EngineChoice}: pushed-down subtrees in Lance's SQL engine or lake's vectorized executor, the rest in
 * Calcite's Enumerable runtime, a lone scan passed through) and push-down of projections and filters into Lance
 * scans. One instance per statement; planning is
 * serialized on it.
 */
public final class StatementPlanner {
  private static final SqlValidator.Config VALIDATOR_CONFIG = SqlValidator.Config.DEFAULT
      .withConformance(SqlConformanceEnum.LENIENT)
      .withIdentifierExpansion(true)
      .withTypeCoercionFactory(BooleanEquality::new);
  private static final SqlToRelConverter.Config CONVERTER_CONFIG = SqlToRelConverter.config()
      .withTrimUnusedFields(true)
      .withExpand(false)
      .withInSubQueryThreshold(Integer.MAX_VALUE);
  private static final RelOptTable.ViewExpander NO_VIEWS = (rowType, queryString, schemaPath, viewPath) -> {
    throw new QueryRejectedException("views are not supported");
  };
  private static final int MAX_MESSAGE = 400;
  /** Calcite's metadata with lake's join row counts and the distinct values of pushed-down subtrees. */
  private static final RelMetadataProvider METADATA = ChainedRelMetadataProvider.of(
      List.of(LakeRelMdRowCount.SOURCE, LakeRelMdDistinctRowCount.SOURCE, DefaultRelMetadataProvider.INSTANCE));
  private static final Pattern NOT_FOUND = Pattern.compile("(?:Object|Table) '([^']+)' not found");

  private final JavaTypeFactoryImpl typeFactory = new LakeTypeFactory();
  private final MainSchema mainSchema;
  private final CalciteSchema rootSchema;
  private final LakeCatalogReader catalogReader;
  private final VolcanoPlanner planner;
  private final RelOptCluster cluster;
  /** Which engine runs pushed-down subtrees; CALCITE when push-down is off. */
  private final SubtreeExecutor executor;
  /** The most estimated groups an aggregate pushed to the vectorized executor may have under AUTO. */
  private final long vectorizedMaxGroups;
  /** The stop flag of the execution planning now (planning is serialized); polled before every rule fires. */
  private volatile QueryGuard guard = new QueryGuard();

  /**
   * @param subtreePushDown whether subtrees are pushed down whole (into Lance's SQL engine or lake's vectorized
   *     operators); false is {@code executor} CALCITE
   * @param executor which engine runs a pushed-down subtree ({@link EngineChoice})
   * @param vectorizedMaxGroups under {@code executor} AUTO, the most estimated groups of an aggregate the vectorized
   *     executor takes ({@code query.vectorized-max-groups})
   */
  public StatementPlanner(TableResolver resolver, boolean subtreePushDown, SubtreeExecutor executor,
      long vectorizedMaxGroups) {
    java.util.Objects.requireNonNull(executor, "executor");
    this.vectorizedMaxGroups = vectorizedMaxGroups;
    this.executor = subtreePushDown ? executor : SubtreeExecutor.CALCITE;
    this.mainSchema = new MainSchema(resolver);
    this.rootSchema = CalciteSchema.createRootSchema(false, false);
    rootSchema.add("lake", new AbstractSchema()).add("main", mainSchema);
    Properties properties = new Properties();
    properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
    this.catalogReader = new LakeCatalogReader(rootSchema, typeFactory, new CalciteConnectionConfigImpl(properties));
    this.planner = new VolcanoPlanner() {
      @Override
      public void checkCancel() {
        guard.check();
        super.checkCancel();
      }
    };
    planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
    planner.addRelTraitDef(RelCollationTraitDef.INSTANCE);
    planner.setExecutor(new BoundedRexExecutor(new RexExecutorImpl(DataContexts.EMPTY)));
    this.cluster = RelOptCluster.create(planner, new RexBuilder(typeFactory));
    cluster.setMetadataProvider(METADATA);
  }

  public JavaTypeFactoryImpl typeFactory() {
    return typeFactory;
  }

  public CalciteSchema rootSchema() {
    return rootSchema;
  }

  /** Every table reference validation looked up, found or not (what decides which plan a cache may reuse). */
  public List<TableReference> references() {
    return mainSchema.references();
  }

  /**
   * Validates a parsed, policy-checked statement and converts it.
   *
   * @throws TableNotFoundException when it names a table the resolver does not know
   * @throws QueryRejectedException when it is not valid SQL over lake's tables
   */
  public ValidatedStatement validate(SqlNode statement) {
    return validate(statement, new QueryGuard());
  }

  /**
   * {@link #validate(SqlNode)} for work {@code stop} may end: validation and conversion poll it for every call
   * ({@link dev.lake.query.guard.GuardedValidation}) and unwind with its
   * {@link dev.lake.query.guard.QueryStoppedException}.
   */
  public ValidatedStatement validate(SqlNode statement, QueryGuard stop) {
    boolean explain = statement.getKind() == SqlKind.EXPLAIN;
    SqlNode query = explain ? ((SqlExplain) statement).getExplicandum() : statement;
    SqlValidator validator = dev.lake.query.guard.GuardedValidation.validator(SqlStdOperatorTable.instance(),
        catalogReader, typeFactory, VALIDATOR_CONFIG, stop);
    SqlNode validated;
    try {
      validated = validator.validate(query);
    } catch (RuntimeException e) {
      throw validationFailure(e);
    }
    RelDataType parameters = validator.getParameterRowType(validated);
    checkParameterTypes(parameters);
    stop.check();
    SqlToRelConverter converter = new SqlToRelConverter(NO_VIEWS, validator, catalogReader, cluster,
        dev.lake.query.guard.GuardedValidation.convertlets(StandardConvertletTable.INSTANCE, stop), CONVERTER_CONFIG);
    RelRoot root = converter.convertQuery(validated, false, true);
    mainSchema.seal();
    return new ValidatedStatement(explain, root, parameters,
        explain ? ResultSchemas.EXPLAIN : ResultSchemas.of(root, typeFactory), mainSchema.resolvedTables());
  }

  /**
   * Plans a validated statement for one execution and compiles it: binds the parameters, optimizes, and for the
   * Enumerable path generates and compiles Calcite's code. Not thread-safe: one call at a time per planner.
   *
   * @param parameters the values of its {@code ?} parameters, or null to plan with them unbound (EXPLAIN only)
   */
  public synchronized CompiledPlan compile(ValidatedStatement statement, List<Object> parameters) {
    return compile(statement, parameters, new QueryGuard());
  }

  /**
   * {@link #compile(ValidatedStatement, List)} for an execution whose {@code stop} flag the planner polls before each
   * rule it fires: a stopped execution's planning ends with its {@link dev.lake.query.guard.QueryStoppedException}.
   */
  public synchronized CompiledPlan compile(ValidatedStatement statement, List<Object> parameters, QueryGuard stop) {
    this.guard = stop;
    try {
      StatementPlan plan = plan(statement, parameters);
      if (statement.explain()) {
        return new CompiledPlan.Explain(plan, plan.explain());
      }
      Engine engine = plan.engine();
      if (engine instanceof Engine.PassThroughScan) {
        return new CompiledPlan.PassThrough(plan, ((Engine.PassThroughScan) engine).scan());
      }
      if (engine instanceof Engine.Vectorized) {
        Engine.Vectorized vectorized = (Engine.Vectorized) engine;
        return new CompiledPlan.Vectorized(plan, vectorized.statement(), vectorized.plan());
      }
      if (engine instanceof Engine.LanceSql) {
        // Lance runs the whole statement; Calcite's code for its run-time fall-back is compiled only if Lance ever
        // rejects it.
        EnumerableRel fallback = (EnumerableRel) ((Engine.LanceSql) engine).pushed().getInput();
        return new CompiledPlan.LanceSql(plan, ((Engine.LanceSql) engine).statement(),
            new Once<>(() -> compileLater(fallback)));
      }
      return new CompiledPlan.Enumerable(plan, code(((Engine.Enumerable) engine).plan()));
    } finally {
      this.guard = new QueryGuard();
      // Keep nothing of this execution's search: a cached planner is reused for the next one.
      planner.clear();
      cluster.invalidateMetadataQuery();
    }
  }

  private static EnumerableCode code(EnumerableRel physical) {
    Map<String, Object> stashed = new HashMap<>();
    @SuppressWarnings("unchecked")
    Bindable<Object> bindable = EnumerableInterpretable.toBindable(stashed, null, RuntimeChecks.apply(physical),
        EnumerableRel.Prefer.ARRAY);
    return new EnumerableCode(bindable, stashed);
  }

  /** Compiles a plan this planner made earlier, on the calling thread, never while it plans another. */
  private synchronized EnumerableCode compileLater(EnumerableRel physical) {
    cluster.setMetadataProvider(METADATA);
    cluster.invalidateMetadataQuery();
    try {
      return code(physical);
    } finally {
      cluster.invalidateMetadataQuery();
    }
  }

  /** A supplier that computes its value once, on first use; thread-safe. */
  private static final class Once<T> implements Supplier<T> {
    private final Supplier<T> compute;
    private T value;

    Once(Supplier<T> compute) {
      this.compute = compute;
    }

    @Override
    public synchronized T get() {
      if (value == null) {
        value = compute.get();
      }
      return value;
    }
  }

  /**
   * Rewrites and optimizes a validated statement and picks its execution path.
   *
   * @param parameters the values of its {@code ?} parameters, or null to plan with them unbound (EXPLAIN only)
   */
  public StatementPlan plan(ValidatedStatement statement, List<Object> parameters) {
    RelNode rel = logical(statement, parameters);
    if (rel instanceof LanceTableScan) {
      return StatementPlan.passThrough((LanceTableScan) rel);
    }
    return physical(rel);
  }

  /**
   * Plans a statement with {@code ?} parameters once, its parameters unbound: when the plan is one pass-through scan
   * whose pushed condition holds them all, each execution binds its values into that condition
   * ({@link ParameterizedScan#bind}) instead of being planned. Empty for any other plan (Calcite's physical planning
   * is not run for it). Not thread-safe: one call at a time per planner, like {@link #compile}.
   */
  public synchronized Optional<ParameterizedScan> parameterized(ValidatedStatement statement, QueryGuard stop) {
    if (statement.explain() || statement.parameterCount() == 0) {
      return Optional.empty();
    }
    this.guard = stop;
    try {
      RelNode rel = logical(statement, null);
      return rel instanceof LanceTableScan
          ? ParameterizedScan.of(StatementPlan.passThrough((LanceTableScan) rel), statement.parameterCount())
          : Optional.empty();
    } finally {
      this.guard = new QueryGuard();
      planner.clear();
      cluster.invalidateMetadataQuery();
    }
  }

  /** Binds, rewrites, orders joins and chooses engines: the logical plan before Calcite's physical planning. */
  private RelNode logical(ValidatedStatement statement, List<Object> parameters) {
    // Calcite keeps the metadata handlers in a thread-local set where the cluster was created; a cached planner runs
    // on whichever thread executes the statement, so install them for this thread. (Calcite's calc program also
    // replaces the provider with its default one: install lake's again.)
    cluster.setMetadataProvider(METADATA);
    cluster.invalidateMetadataQuery();
    RelNode rel = statement.root().project();
    if (parameters != null) {
      if (parameters.size() != statement.parameterCount()) {
        throw new QueryRejectedException("the statement has " + statement.parameterCount()
            + " parameter(s) but " + parameters.size() + " value(s) were bound; bind one value per ?");
      }
      rel = ParameterBinder.bind(rel, parameters);
    }
    RelBuilder relBuilder = RelFactories.LOGICAL_BUILDER.create(cluster, catalogReader);
    if (executor != SubtreeExecutor.CALCITE) {
      rel = CorrelatedSemiJoins.rewrite(rel);
    }
    rel = hep(PlanRules.SUB_QUERIES, rel);
    rel = RelDecorrelator.decorrelateQuery(rel, relBuilder);
    guard.check();
    rel = new RelFieldTrimmer(null, relBuilder).trim(rel);
    guard.check();
    rel = CheckedWindowSums.rewrite(rel);
    rel = hep(PlanRules.DISJUNCTIONS, rel);
    rel = hep(PlanRules.NORMALIZE, rel);
    if (RelOptUtil.countJoins(rel) > 0) {
      rel = hep(PlanRules.JOIN_ORDER, rel);
      rel = OuterJoinCounts.rewrite(rel, relBuilder);
    }
    rel = EngineChoice.choose(rel, executor, vectorizedMaxGroups);
    return hep(PlanRules.LATE, rel);
  }

  private StatementPlan physical(RelNode rel) {
    guard.check();
    RelTraitSet desired = rel.getTraitSet().replace(EnumerableConvention.INSTANCE).simplify();
    RelNode physical;
    try {
      // Enumerable projects and filters only run as Calcs: Calcite's calc program merges them after Volcano.
      physical = Programs.sequence(Programs.of(RuleSets.ofList(PlanRules.PHYSICAL)), Programs.CALC_PROGRAM)
          .run(planner, rel, desired, List.of(), List.of());
    } catch (RelOptPlanner.CannotPlanException e) {
      throw new QueryRejectedException("lake cannot run this statement yet: no executable plan was found for"
          + " one of its operators; rewrite it with simpler constructs", e);
    }
    cluster.setMetadataProvider(METADATA);
    cluster.invalidateMetadataQuery();
    physical = ExactRuntime.apply(RuntimeFilterPlanner.apply(physical));
    return StatementPlan.enumerable((EnumerableRel) ColumnCacheScans.apply(physical));
  }

  private RelNode hep(HepProgram program, RelNode rel) {
    QueryGuard stop = guard;
    stop.check();
    HepPlanner hep = new HepPlanner(program) {
      @Override
      public void checkCancel() {
        stop.check();
        super.checkCancel();
      }
    };
    hep.setRoot(rel);
    return hep.findBestExp();
  }

  private static void checkParameterTypes(RelDataType parameters) {
    for (RelDataTypeField field : parameters.getFieldList()) {
      SqlTypeName type = field.getType().getSqlTypeName();
      if (type == SqlTypeName.UNKNOWN || type == SqlTypeName.NULL || type == SqlTypeName.ANY) {
        throw new QueryRejectedException("the type of parameter " + (field.getIndex() + 1)
            + " cannot be inferred from the statement; CAST it, e.g. CAST(? AS BIGINT)");
      }
    }
  }

  private RuntimeException validationFailure(RuntimeException e) {
    if (mainSchema.failure().isPresent()) {
      return mainSchema.failure().get();
    }
    if (e instanceof QueryRejectedException || e instanceof TableNotFoundException
        || e instanceof dev.lake.query.guard.QueryStoppedException) {
      return e;
    }
    if (!mainSchema.invalid().isEmpty()) {
      String invalid = mainSchema.invalid().iterator().next();
      if (invalid.indexOf('@') > 0) {
        return new QueryRejectedException("'" + Echo.of(invalid) + "' is not a table reference: read a registered"
            + " version as \"t@v42\" or the version current at an instant with FROM t FOR SYSTEM_TIME AS OF"
            + " TIMESTAMP '2026-01-01 00:00:00'", e);
      }
      return new QueryRejectedException("'" + Echo.of(invalid)
          + "' is not a table name: lake reads only its registered tables (names of letters, digits and"
          + " underscores), never paths, URLs or external sources", e);
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (message.contains("Illegal use of dynamic parameter")) {
      return new QueryRejectedException("the type of a ? parameter cannot be inferred from where it stands ("
          + Echo.of(message) + "); CAST it, e.g. CAST(? AS BIGINT)", e);
    }
    if (!mainSchema.missing().isEmpty()) {
      // Calcite probes prefixes of a qualified name too: report the name its message says was not found.
      Matcher notFound = NOT_FOUND.matcher(message);
      String named = notFound.find() ? notFound.group(1).toLowerCase(Locale.ROOT) : null;
      List<TableReference> missing = new ArrayList<>(mainSchema.missing().values());
      TableReference reported = missing.stream().filter(r -> r.key().equalsIgnoreCase(String.valueOf(named)))
          .findFirst().orElse(missing.get(missing.size() - 1));
      return new TableNotFoundException(reported.name());
    }
    if (message.length() > MAX_MESSAGE) {
      message = message.substring(0, MAX_MESSAGE) + "...";
    }
    return new QueryRejectedException("SQL validation error: " + message, e);
  }
}
