package dev.lake.query.plan.lance;

import dev.lake.query.plan.types.RowShape;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import dev.lake.query.vector.CachedScan;
import dev.lake.query.vector.InKeys;
import dev.lake.query.vector.VectorPlan;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;

/**
 * One table scan as Calcite's generated code calls it: stashed by {@link LanceTableScan#implement}, it names the
 * table reference, not a reader, and finds the execution's {@link ScanSource} in the data context at run time. So
 * the compiled plan stays the same for every execution and can be cached. Its runtime filters are resolved when the
 * scan opens, from the execution's {@link RuntimeKeys}.
 */
public record LanceScanCall(String reference, List<String> columns, Optional<String> filter, Optional<Long> limit,
    RowShape shape, List<RuntimeFilter> runtimeFilters, Optional<CachedScan> cached,
    List<VectorPlan.Output> types) {
  private static final String PREFIX = "lake.scan:";

  public LanceScanCall {
    Objects.requireNonNull(reference, "reference");
    columns = List.copyOf(columns);
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(limit, "limit");
    Objects.requireNonNull(shape, "shape");
    runtimeFilters = List.copyOf(runtimeFilters);
    Objects.requireNonNull(cached, "cached");
    types = List.copyOf(types);
  }

  /** The data-context variable an execution binds the {@link ScanSource} of {@code reference} to. */
  public static String sourceVariable(String reference) {
    return PREFIX + reference;
  }

  /** The rows; called by generated code with the execution's data context. */
  public Enumerable<Object> enumerable(DataContext root) {
    Object source = root.get(sourceVariable(reference));
    if (!(source instanceof ScanSource)) {
      throw new IllegalStateException("no scan source is bound for table reference '" + reference + "'");
    }
    RuntimeKeys keys = RuntimeKeys.of(root);
    if (cached.isPresent()) {
      // runtime filters are resolved when the scan opens: the hash join above has collected its keys by then
      Optional<Enumerable<Object>> rows = ((ScanSource) source).cachedRows(cached.get(),
          () -> withRuntimeFilters(cached.get(), keys), types, shape);
      if (rows.isPresent()) {
        return rows.get();
      }
    }
    return ((ScanSource) source).rows(columns, () -> effectiveFilter(keys), limit, shape);
  }

  /**
   * The cached scan with each runtime filter whose keys are ready as an IN-set test over its (integer) column (one
   * that cannot be written so is left out: a runtime filter only saves work), the sparsest key set first.
   */
  private CachedScan withRuntimeFilters(CachedScan scan, RuntimeKeys keys) {
    if (runtimeFilters.isEmpty()) {
      return scan;
    }
    List<InKeys> tests = new java.util.ArrayList<>();
    for (RuntimeFilter runtime : runtimeFilters) {
      Optional<java.util.Set<Object>> values = keys.keys(runtime.slot());
      if (values.isEmpty()) {
        continue;
      }
      int column = scan.columns().indexOf(runtime.column());
      Optional<InKeys> in = column < 0 ? Optional.empty() : InKeys.of(column, values.get());
      in.ifPresent(tests::add);
    }
    // The sparsest key set first (TPC-H Q2: 750 of 200,000 part keys before 2,000 of 10,000 supplier keys).
    tests.sort(java.util.Comparator.comparingDouble(InKeys::density));
    List<dev.lake.query.vector.Expr> conjuncts = new java.util.ArrayList<>(tests);
    scan.filter().ifPresent(filter -> conjuncts.addAll(filter.conjuncts()));
    return new CachedScan(scan.columns(), scan.outputs(), conjuncts.isEmpty() ? Optional.empty()
        : Optional.of(new dev.lake.query.vector.Op.Filter(conjuncts)), scan.key());
  }

  /** The pushed filter and every runtime filter whose keys are ready when the scan opens. */
  private Optional<String> effectiveFilter(RuntimeKeys keys) {
    List<String> parts = new java.util.ArrayList<>();
    filter.ifPresent(parts::add);
    for (RuntimeFilter runtime : runtimeFilters) {
      keys.keys(runtime.slot()).filter(values -> values.size() <= runtime.maxKeys())
          .flatMap(values -> RuntimeFilter.lanceFilter(runtime.column(), values)).ifPresent(parts::add);
    }
    return parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" AND ", parts));
  }
}
