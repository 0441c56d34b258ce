package dev.lake.query.exec;

import dev.lake.query.guard.RowCheckpoints;
import dev.lake.query.plan.CompiledPlan;
import dev.lake.query.plan.EnumerableCode;
import dev.lake.query.plan.lance.PushedStatement;
import dev.lake.query.plan.lance.LanceScanCall;
import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.lance.RuntimeKeys;
import dev.lake.query.plan.lance.ScanSource;
import dev.lake.query.plan.StatementPlanner;
import dev.lake.query.plan.ValidatedStatement;
import java.time.Clock;
import dev.lake.query.vector.VectorResult;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.runtime.Bindable;

/**
 * Turns a compiled statement into its result stream, one case per kind of {@link CompiledPlan}: Lance's batches for a
 * pass-through scan (or the vectorized executor's column cache's rows, when it holds the scan's columns), the batches
 * of Lance's SQL engine for a statement pushed down whole (Calcite's rows if Lance rejects it), the vectorized
 * executor's result columns written straight into the batches for a statement it runs whole, Calcite's Enumerable rows
 * written into Arrow batches otherwise, or the plan text for EXPLAIN. The compiled plan may be shared by concurrent
 * executions: everything of one execution (its scan sources, clock readings, cancel flag) lives in its own data
 * context.
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
    BatchSource batches = compiled.accept(new CompiledPlan.Cases<BatchSource>() {
      @Override
      public BatchSource passThrough(CompiledPlan.PassThrough plan) {
        LanceTableScan scan = plan.scan();
        ScanSource source = source(sources, scan.lanceTable().reference().key());
        if (plan.cacheRead().isPresent()) {
          Optional<Iterator<VectorResult>> cached = source.cachedScan(plan.cacheRead().get(), scan.limit(),
              batchSize);
          if (cached.isPresent()) {
            return VectorBatches.chunked(cached.get(), batchSize, resources.guard());
          }
        }
        return new PassThroughBatches(source.batches(scan.columnNames(), plan.filter(), scan.limit()), resources);
      }

      @Override
      public BatchSource lanceSql(CompiledPlan.LanceSql plan) {
        // the run-time fall-back: Calcite's plan of the statement runs if Lance rejects it before its first batch
        PushedStatement scan = plan.statement();
        ScanSource source = source(sources, scan.table().reference().key());
        return new LanceSqlBatches(scan.sql(), () -> source.sql(scan.sql()),
            () -> rows(plan.fallback().get(), planner, sources, resources), resources, counters, batchSize);
      }

      @Override
      public BatchSource vectorized(CompiledPlan.Vectorized plan) {
        ScanSource source = source(sources, plan.statement().table().reference().key());
        return VectorBatches.of(() -> source.vectorResult(plan.vectorPlan()), batchSize, resources.guard());
      }

      @Override
      public BatchSource enumerable(CompiledPlan.Enumerable plan) {
        return rows(plan.code(), planner, sources, resources);
      }

      @Override
      public BatchSource explain(CompiledPlan.Explain plan) {
        List<Object> lines = List.of((Object[]) plan.text().split("\n"));
        return new RowBatches(() -> Linq4j.iterableEnumerator(lines), batchSize, () -> { }, resources.guard());
      }
    });
    return new ResultReader(statement.resultSchema(), batches, resources, failures);
  }

  /** Calcite's rows of compiled code, bound to this execution's sources, written into batches. */
  private BatchSource rows(EnumerableCode code, StatementPlanner planner, Map<String, ScanSource> sources,
      QueryResources resources) {
    Bindable<Object> bindable = code.bindable();
    Map<String, Object> values = new HashMap<>(code.stashed());
    sources.forEach((reference, source) -> values.put(LanceScanCall.sourceVariable(reference), source));
    values.put(RuntimeKeys.VARIABLE, new RuntimeKeys());
    values.put(RowCheckpoints.VARIABLE, new RowCheckpoints.Rows(resources.guard(), resources.rows()));
    values.put(dev.lake.query.plan.enumerable.SpillingSort.VARIABLE,
        new dev.lake.query.plan.enumerable.SpillingSort.Space(resources.rows(), resources.spill(),
            resources.allocator().getLimit() / 4));
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
}
