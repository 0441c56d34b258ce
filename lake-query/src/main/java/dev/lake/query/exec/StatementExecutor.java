package dev.lake.query.exec;

import dev.lake.query.guard.RowCheckpoints;
import dev.lake.query.plan.CompiledPlan;
import dev.lake.query.plan.Engine;
import dev.lake.query.plan.EnumerableCode;
import dev.lake.query.plan.lance.PushedStatement;
import dev.lake.query.plan.lance.LanceScanCall;
import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.types.RowShape;
import dev.lake.query.plan.lance.RuntimeKeys;
import dev.lake.query.plan.lance.ScanSource;
import dev.lake.query.plan.StatementPlan;
import dev.lake.query.plan.StatementPlanner;
import dev.lake.query.plan.ValidatedStatement;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.runtime.Bindable;

/**
 * Turns a compiled statement into its result stream: Lance's batches for a pass-through scan, the batches of Lance's
 * SQL engine for a statement pushed down whole (Calcite's rows if Lance rejects it), Calcite's Enumerable rows written
 * into Arrow batches otherwise, or the plan text for EXPLAIN. The compiled plan may be shared by
 * concurrent executions: everything of one execution (its scan sources, clock readings, cancel flag) lives in its
 * own data context.
 */
public final class StatementExecutor {
  private final int batchSize;
  private final Clock clock;
  private final Function<Throwable, RuntimeException> failures;
  private final PushdownCounters counters;

  /**
   * @param failures translates anything thrown while a batch is produced into lake's exception types
   * @param counters counts statements pushed down whole
   */
  public StatementExecutor(int batchSize, Clock clock, Function<Throwable, RuntimeException> failures,
      PushdownCounters counters) {
    this.batchSize = batchSize;
    this.clock = clock;
    this.failures = failures;
    this.counters = counters;
  }

  /**
   * The result stream of {@code compiled}, reading the tables through {@code sources}; from here on, closing the
   * stream closes {@code resources}.
   *
   * @param sources the execution's scan source of every table reference, by reference key
   */
  public ResultReader stream(ValidatedStatement statement, CompiledPlan compiled, StatementPlanner planner,
      Map<String, ScanSource> sources, QueryResources resources) {
    return stream(statement, compiled, planner, sources, resources, failures);
  }

  /** As above, translating this execution's failures with {@code failures} instead of the executor's own. */
  public ResultReader stream(ValidatedStatement statement, CompiledPlan compiled, StatementPlanner planner,
      Map<String, ScanSource> sources, QueryResources resources, Function<Throwable, RuntimeException> failures) {
    if (compiled.explain().isPresent()) {
      return explain(statement, compiled.explain().get(), resources, failures);
    }
    StatementPlan plan = compiled.plan();
    Engine engine = plan.engine();
    if (engine instanceof Engine.PassThroughScan) {
      LanceTableScan scan = ((Engine.PassThroughScan) engine).scan();
      ScanSource source = source(sources, scan.lanceTable().reference().key());
      var lance = source.batches(scan.columnNames(), scan.filter(), scan.limit());
      return new ResultReader(statement.resultSchema(), new PassThroughBatches(lance, resources), resources,
          failures);
    }
    if (engine instanceof Engine.Vectorized) {
      Engine.Vectorized vectorized = (Engine.Vectorized) engine;
      ScanSource source = source(sources, vectorized.statement().table().reference().key());
      RowShape shape = statement.resultSchema().getFields().size() == 1 ? RowShape.SCALAR : RowShape.ARRAY;
      BatchSource batches = new RowBatches(() -> source.vectorRows(vectorized.plan(), shape).enumerator(),
          batchSize, () -> { }, resources.guard());
      return new ResultReader(statement.resultSchema(), batches, resources, failures);
    }
    if (engine instanceof Engine.LanceSql) {
      // the run-time fall-back: Calcite's plan of the statement runs if Lance rejects it before its first batch
      PushedStatement scan = ((Engine.LanceSql) engine).statement();
      ScanSource source = source(sources, scan.table().reference().key());
      Supplier<EnumerableCode> fallback = compiled.fallback().orElseThrow();
      BatchSource batches = new LanceSqlBatches(scan.sql(), () -> source.sql(scan.sql()),
          () -> rows(fallback.get(), planner, sources, resources), resources, counters, batchSize);
      return new ResultReader(statement.resultSchema(), batches, resources, failures);
    }
    return new ResultReader(statement.resultSchema(), rows(compiled.code().orElseThrow(), planner, sources,
        resources), resources, failures);
  }

  /** Calcite's rows of compiled code, bound to this execution's sources, written into batches. */
  private BatchSource rows(EnumerableCode code, StatementPlanner planner, Map<String, ScanSource> sources,
      QueryResources resources) {
    Bindable<Object> bindable = code.bindable();
    Map<String, Object> values = new HashMap<>(code.stashed());
    sources.forEach((reference, source) -> values.put(LanceScanCall.sourceVariable(reference), source));
    values.put(RuntimeKeys.VARIABLE, new RuntimeKeys());
    values.put(RowCheckpoints.VARIABLE, new RowCheckpoints.Rows(resources.guard(), resources.rows()));
    AtomicBoolean cancelled = resources.guard().cancelFlag();
    LakeDataContext context = new LakeDataContext(planner.rootSchema().plus(), planner.typeFactory(), values,
        clock, cancelled);
    Supplier<Enumerator<Object>> rows = () -> bindable.bind(context).enumerator();
    return new RowBatches(rows, batchSize, () -> cancelled.set(true), resources.guard());
  }

  private static ScanSource source(Map<String, ScanSource> sources, String reference) {
    ScanSource source = sources.get(reference);
    if (source == null) {
      throw new IllegalStateException("no scan source is bound for table reference '" + reference + "'");
    }
    return source;
  }

  /** The EXPLAIN result: the plan text, one row per line. */
  private ResultReader explain(ValidatedStatement statement, String text, QueryResources resources,
      Function<Throwable, RuntimeException> failures) {
    List<Object> lines = List.of((Object[]) text.split("\n"));
    return new ResultReader(statement.resultSchema(),
        new RowBatches(() -> Linq4j.iterableEnumerator(lines), batchSize, () -> { }, resources.guard()), resources,
        failures);
  }
}
