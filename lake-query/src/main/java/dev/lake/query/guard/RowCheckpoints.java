package dev.lake.query.guard;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * What Calcite's generated code calls between two operators (lake inserts the calls when it compiles a plan):
 * every row an operator consumes first polls the statement's {@link QueryGuard}, so a nested-loop join, a hash
 * join's build, an aggregation or a sort stops within a row of a timeout or cancel; and the rows of inputs an
 * operator keeps (a hash join's build side, a sort's or a grouping aggregation's input, a distinct set operation's)
 * are charged to the query's memory budget as they arrive ({@link HeapCharge}).
 */
public final class RowCheckpoints {
  /** The data-context variable holding the execution's {@link Rows}. */
  public static final String VARIABLE = "lakeRowGuard";

  private RowCheckpoints() {}

  /** The execution's guard and row charge, as the generated code finds them in its data context. */
  public record Rows(QueryGuard guard, HeapCharge charge) {}

  /** {@code input}, each row checked (and charged when {@code retained}); called by generated code. */
  public static <T> Enumerable<T> checked(Enumerable<T> input, DataContext root, boolean retained) {
    Object found = root.get(VARIABLE);
    if (!(found instanceof Rows rows)) {
      return input;
    }
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        rows.guard().check();
        return new Checked<>(input.enumerator(), rows, retained);
      }
    };
  }

  private static final class Checked<T> implements Enumerator<T> {
    private final Enumerator<T> input;
    private final QueryGuard guard;
    private final HeapCharge charge;

    Checked(Enumerator<T> input, Rows rows, boolean retained) {
      this.input = input;
      this.guard = rows.guard();
      this.charge = retained ? rows.charge() : null;
    }

    @Override
    public T current() {
      return input.current();
    }

    @Override
    public boolean moveNext() {
      guard.check();
      boolean more = input.moveNext();
      if (more && charge != null) {
        charge.add(HeapCharge.rowBytes(input.current()));
      }
      return more;
    }

    @Override
    public void reset() {
      input.reset();
    }

    @Override
    public void close() {
      input.close();
    }
  }
}
