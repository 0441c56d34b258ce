package dev.lake.query.exec;

import dev.lake.query.exec.ValueReaders.ValueReader;
import dev.lake.query.plan.types.ColumnType;
import dev.lake.query.plan.types.RowShape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Rows of a statement run by Lance's SQL engine, for Calcite: runs the statement on the first {@link #moveNext()},
 * holds one batch at a time and converts each value to the row runtime's representation of its column type. If Lance
 * rejects the statement before the first batch arrives, the rows of the fallback (Calcite running the same subtree)
 * are returned instead. Closing releases the statement.
 */
final class LanceSqlRowEnumerator implements Enumerator<Object> {
  private final String sql;
  private final Supplier<ArrowReader> opener;
  private final QueryResources resources;
  private final List<ColumnType> types;
  private final ShapedRows rows;
  private final Supplier<Enumerable<Object>> fallback;
  private final PushdownCounters counters;
  private ArrowReader reader;
  private Enumerator<Object> fallbackRows;
  private Object current;
  private boolean started;
  private boolean done;

  LanceSqlRowEnumerator(String sql, Supplier<ArrowReader> opener, QueryResources resources, List<ColumnType> types,
      RowShape shape, Supplier<Enumerable<Object>> fallback, PushdownCounters counters) {
    this.sql = sql;
    this.opener = opener;
    this.resources = resources;
    this.types = types;
    this.rows = new ShapedRows(shape, batch -> {
      ValueReader[] columns = new ValueReader[types.size()];
      for (int i = 0; i < columns.length; i++) {
        columns[i] = ValueReaders.forColumn(batch.getVector(i), types.get(i));
      }
      return columns;
    });
    this.fallback = fallback;
    this.counters = counters;
  }

  @Override
  public Object current() {
    return fallbackRows != null ? fallbackRows.current() : current;
  }

  @Override
  public boolean moveNext() {
    if (done) {
      return false;
    }
    if (resources.isClosed()) {
      close();
      throw new IllegalStateException("the query was closed or cancelled while it was reading");
    }
    if (!started) {
      started = true;
      start();
      if (done) {
        return false;
      }
    }
    if (fallbackRows != null) {
      return fallbackRows.moveNext();
    }
    try {
      if (!rows.next(reader)) {
        close();
        return false;
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("reading the answer of Lance's SQL engine failed: " + e.getMessage(), e);
    }
    current = rows.current();
    return true;
  }

  /** Runs the statement and reads its first batch; a rejection switches to the fallback. */
  private void start() {
    try {
      reader = opener.get();
      boolean first = reader.loadNextBatch();
      VectorSchemaRoot batch = reader.getVectorSchemaRoot();
      if (batch.getFieldVectors().size() != types.size()) {
        throw new IllegalStateException("Lance's SQL engine returned " + batch.getFieldVectors().size()
            + " columns for a subtree of " + types.size());
      }
      if (first) {
        rows.bind(batch);
      } else {
        done = true;
        release();
      }
      counters.ran(false);
    } catch (RuntimeException | IOException e) {
      release();
      if (resources.isClosed() || !LanceSqlFailures.fallsBack(e)) {
        done = true;
        throw e instanceof IOException ? new UncheckedIOException((IOException) e) : (RuntimeException) e;
      }
      LanceSqlFailures.logFallback(sql, e, counters);
      fallbackRows = fallback.get().enumerator();
    }
  }

  @Override
  public void reset() {
    throw new UnsupportedOperationException("a Lance SQL statement cannot be rewound");
  }

  @Override
  public void close() {
    done = true;
    current = null;
    release();
    if (fallbackRows != null) {
      fallbackRows.close();
    }
  }

  private void release() {
    if (reader != null) {
      ArrowReader open = reader;
      reader = null;
      resources.release(open);
    }
  }
}
