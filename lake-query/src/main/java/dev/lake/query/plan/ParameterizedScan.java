package dev.lake.query.plan;

import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.plan.lance.LanceFilterTranslator;
import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.vector.ColumnCacheScans;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexVisitorImpl;

/**
 * A statement with {@code ?} parameters planned once, before any value is bound, into one pass-through Lance scan
 * whose pushed condition holds the parameters: each execution binds its values into that condition (as
 * {@link ParameterBinder} binds them into a plan: the value coerced exactly to the parameter's type, or the statement
 * refused naming the parameter) and translates it into the Lance filter again — microseconds, where planning the
 * statement with its values as literals takes Calcite's whole optimizer. A bound condition that does not translate
 * (a NULL, a value Lance's filter cannot express exactly) gives no plan: the caller then plans the statement with
 * that execution's values as literals, as before.
 *
 * <p>Thread-safe: concurrent executions bind their own values. The plans bound for the {@value #KEPT} most recent
 * distinct value lists are kept ({@link #bind}): a dashboard sends the same few values again and again (five
 * priorities), and a bound plan holds nothing of an execution.
 */
public final class ParameterizedScan {
  private final StatementPlan plan;
  private final LanceTableScan scan;
  private final RexNode condition;
  private final int parameterCount;
  private static final int KEPT = 64;
  /** Bound plans (or none: the values do not translate) by value list, most recently used last. */
  private final java.util.Map<List<Object>, Optional<CompiledPlan.PassThrough>> kept =
      java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<List<Object>, Optional<CompiledPlan.PassThrough>> e) {
          return size() > KEPT;
        }
      });

  private ParameterizedScan(StatementPlan plan, LanceTableScan scan, RexNode condition, int parameterCount) {
    this.plan = plan;
    this.scan = scan;
    this.condition = condition;
    this.parameterCount = parameterCount;
  }

  /**
   * The parameterized scan of a plan made with the parameters unbound, when that plan is one pass-through scan whose
   * pushed condition holds every one of the statement's {@code parameterCount} parameters; empty otherwise.
   */
  static Optional<ParameterizedScan> of(StatementPlan plan, int parameterCount) {
    if (parameterCount <= 0 || !(plan.engine() instanceof Engine.PassThroughScan)) {
      return Optional.empty();
    }
    LanceTableScan scan = ((Engine.PassThroughScan) plan.engine()).scan();
    if (scan.condition().isEmpty() || !scan.runtimeFilters().isEmpty()) {
      return Optional.empty();
    }
    BitSet seen = new BitSet();
    scan.condition().get().accept(new RexVisitorImpl<Void>(true) {
      @Override
      public Void visitDynamicParam(RexDynamicParam param) {
        seen.set(param.getIndex());
        return null;
      }
    });
    if (seen.cardinality() != parameterCount || seen.nextSetBit(parameterCount) >= 0) {
      return Optional.empty();
    }
    return Optional.of(new ParameterizedScan(plan, scan, scan.condition().get(), parameterCount));
  }

  /** The scan as planned (its filter holds placeholders and is never run). */
  public LanceTableScan scan() {
    return scan;
  }

  /**
   * The plan of one execution with {@code values} bound, or empty when the bound condition does not translate into a
   * Lance filter (the caller then plans with the values as literals).
   *
   * @throws QueryRejectedException when the number of values is not the number of parameters, or a value does not
   *     fit its parameter's type
   */
  public Optional<CompiledPlan.PassThrough> bind(List<Object> values) {
    Objects.requireNonNull(values, "values");
    if (values.size() != parameterCount) {
      throw new QueryRejectedException("the statement has " + parameterCount + " parameter(s) but " + values.size()
          + " value(s) were bound; bind one value per ?");
    }
    boolean keep = keepable(values);
    Optional<CompiledPlan.PassThrough> known = keep ? kept.get(values) : null;
    if (known != null) {
      return known;
    }
    Optional<CompiledPlan.PassThrough> bound = bound(values);
    if (keep) {
      kept.put(List.copyOf(values), bound);
    }
    return bound;
  }

  /**
   * Values compared by value (numbers, strings, booleans, dates and times; no NULL, no bytes): equal lists bind the
   * same plan. A Long and an Integer of one number are different keys, each bound exactly.
   */
  private static boolean keepable(List<Object> values) {
    for (Object v : values) {
      if (!(v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
          || v instanceof String || v instanceof Boolean || v instanceof java.math.BigDecimal
          || v instanceof java.time.LocalDate || v instanceof java.time.LocalDateTime
          || v instanceof java.time.LocalTime)) {
        return false;
      }
    }
    return true;
  }

  private Optional<CompiledPlan.PassThrough> bound(List<Object> values) {
    RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
    RexNode bound = condition.accept(new RexShuttle() {
      @Override
      public RexNode visitDynamicParam(RexDynamicParam param) {
        return ParameterBinder.literal(rexBuilder, param.getIndex(), param.getType(), values.get(param.getIndex()));
      }
    });
    List<String> parts = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(bound)) {
      Optional<String> translated = LanceFilterTranslator.translate(conjunct, scan.lanceTable().fields());
      if (translated.isEmpty()) {
        return Optional.empty();
      }
      parts.add(translated.get());
    }
    return Optional.of(new CompiledPlan.PassThrough(plan, scan, Optional.of(String.join(" AND ", parts)),
        ColumnCacheScans.passThrough(scan, Optional.of(bound))));
  }
}
