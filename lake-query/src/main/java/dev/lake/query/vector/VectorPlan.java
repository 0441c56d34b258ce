package dev.lake.query.vector;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A single-table subtree compiled for the vectorized executor: scan {@link #columns} (with {@link #lanceFilter}
 * pushed into Lance, or {@link #scanFilter} evaluated here in a one-pass scan), run {@link #before} per batch,
 * hash-aggregate by {@link #keys} with {@link #aggregates}, run {@link #after} on the grouped rows, then sort and cut.
 * A {@link #rowsOnly() rows-only} plan (keys, key shapes and argument shapes null, no aggregates, nothing after, no
 * sort) aggregates nothing: the rows {@link #before} keeps are its result, in no particular order (a join tree that is
 * another vectorized join's build side).
 *
 * @param keyShapes kind and scale of each key column; {@code argShapes} of each aggregate's argument (null: none)
 * @param output the representation and decimal scale of each result column in the row runtime
 */
public record VectorPlan(String table, List<String> columns, Optional<String> lanceFilter,
    Optional<Op.Filter> scanFilter, List<Op> before, int[] keys, Col[] keyShapes, List<AggSpec> aggregates,
    Col[] argShapes, List<Op> after, List<SortKey> sort, long offset, Optional<Long> fetch, List<Output> output) {
  public VectorPlan {
    Objects.requireNonNull(table, "table");
    columns = List.copyOf(columns);
    before = List.copyOf(before);
    aggregates = List.copyOf(aggregates);
    after = List.copyOf(after);
    sort = List.copyOf(sort);
    output = List.copyOf(output);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a vectorized scan reads at least one column");
    }
    if (keys == null && (!aggregates.isEmpty() || !after.isEmpty() || !sort.isEmpty() || offset != 0
        || fetch.isPresent())) {
      throw new IllegalArgumentException("a rows-only plan has no aggregates, operators after them, sort or limit");
    }
  }

  /** Whether the plan aggregates nothing: the rows {@link #before} keeps are its result (see the class comment). */
  public boolean rowsOnly() {
    return keys == null;
  }

  /** The joins the probe pipeline runs (in {@link #before}), each needing its build side bound per execution. */
  public List<JoinSpec> joins() {
    List<JoinSpec> joins = new java.util.ArrayList<>();
    for (Op op : before) {
      if (op instanceof Op.Probe) {
        joins.add(((Op.Probe) op).spec());
      } else if (op instanceof OuterProbe) {
        joins.add(((OuterProbe) op).spec());
      } else if (op instanceof SemiProbe) {
        joins.add(((SemiProbe) op).spec());
      }
    }
    return joins;
  }

  /**
   * This plan for one execution: each join probes the table built for its slot ({@code tables.get(slot)}). The plan
   * itself stays unbound, so a cached plan is shared by concurrent executions.
   */
  public VectorPlan bind(List<JoinTable> tables) {
    return bind(tables, java.util.Collections.nCopies(tables.size(), null));
  }

  /**
   * {@link #bind(List)} where some build sides spilled: a join whose slot has a {@code spilled} build (not null)
   * becomes a {@link SpilledProbe}, which the executor runs partition by partition.
   */
  public VectorPlan bind(List<JoinTable> tables, List<PartitionedBuild> spilled) {
    List<Op> bound = new java.util.ArrayList<>(before.size());
    for (Op op : before) {
      int slot = op instanceof Op.Probe ? ((Op.Probe) op).spec().slot()
          : op instanceof OuterProbe ? ((OuterProbe) op).spec().slot()
          : op instanceof SemiProbe ? ((SemiProbe) op).spec().slot() : -1;
      if (slot >= 0 && spilled.get(slot) != null) {
        bound.add(new SpilledProbe(op, spilled.get(slot)));
        continue;
      }
      if (op instanceof KeyPrefilter) {
        bound.add(((KeyPrefilter) op).bind(tables, spilled));
        continue;
      }
      bound.add(op instanceof Op.Probe ? ((Op.Probe) op).bind(tables.get(((Op.Probe) op).spec().slot()))
          : op instanceof OuterProbe ? ((OuterProbe) op).bind(tables.get(((OuterProbe) op).spec().slot()))
          : op instanceof SemiProbe ? ((SemiProbe) op).bind(tables.get(((SemiProbe) op).spec().slot())) : op);
    }
    return new VectorPlan(table, columns, lanceFilter, scanFilter, bound, keys, keyShapes, aggregates, argShapes,
        after, sort, offset, fetch, output);
  }

  /** One ORDER BY key over the result columns. */
  public record SortKey(int column, boolean descending, boolean nullsFirst) {}

  /** A result column's representation (and decimal scale). */
  public record Output(ResultType type, int scale) {
    public Output {
      Objects.requireNonNull(type, "type");
    }
  }
}
