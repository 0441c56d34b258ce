package dev.lake.query.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * The rows of one Lance scan or pushed-down statement within one execution. Calcite's nested-loop joins enumerate
 * their inner input once per outer row (an uncorrelated scalar subquery, NOT IN): from the second enumeration on, the
 * rows are recorded while they stream, up to {@link #MAX_RECORDED_ROWS}, and later enumerations replay them instead
 * of reading Lance again. The first enumeration — the only one of most inputs — records nothing.
 */
final class ReplayableRows extends AbstractEnumerable<Object> {
  /** The most rows kept for replay; a bigger input is read again from Lance on every enumeration. */
  static final int MAX_RECORDED_ROWS = 100_000;

  private final Supplier<Enumerator<Object>> source;
  private int enumerations;
  private List<Object> recorded;

  ReplayableRows(Supplier<Enumerator<Object>> source) {
    this.source = source;
  }

  @Override
  public synchronized Enumerator<Object> enumerator() {
    if (recorded != null) {
      return Linq4j.iterableEnumerator(recorded);
    }
    enumerations++;
    Enumerator<Object> rows = source.get();
    return enumerations < 2 ? rows : new Recording(rows);
  }

  private synchronized void recorded(List<Object> rows) {
    if (recorded == null) {
      recorded = rows;
    }
  }

  /** Streams the rows and, if they all fit, keeps them for replay once the end is reached. */
  private final class Recording implements Enumerator<Object> {
    private final Enumerator<Object> rows;
    private List<Object> kept = new ArrayList<>();

    Recording(Enumerator<Object> rows) {
      this.rows = rows;
    }

    @Override
    public Object current() {
      return rows.current();
    }

    @Override
    public boolean moveNext() {
      boolean more = rows.moveNext();
      if (kept != null) {
        if (!more) {
          recorded(kept);
          kept = null;
        } else if (kept.size() < MAX_RECORDED_ROWS) {
          kept.add(rows.current());
        } else {
          kept = null;
        }
      }
      return more;
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException("rows of a Lance read cannot be rewound");
    }

    @Override
    public void close() {
      kept = null;
      rows.close();
    }
  }
}
