package dev.lake.query.exec;

import dev.lake.query.exec.ValueReaders.ValueReader;
import dev.lake.query.plan.types.RowShape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Rows of a Lance scan for Calcite: opens the scan on the first {@link #moveNext()}, holds one batch at a time and
 * converts a row's values only when it is reached. Closing releases the scan.
 */
final class LanceRowEnumerator implements Enumerator<Object> {
  private final Supplier<ArrowReader> opener;
  private final QueryResources resources;
  private final ShapedRows rows;
  private ArrowReader reader;
  private Object current;
  private boolean done;

  LanceRowEnumerator(Supplier<ArrowReader> opener, QueryResources resources, int columnCount, RowShape shape) {
    this.opener = opener;
    this.resources = resources;
    this.rows = new ShapedRows(shape, batch -> {
      ValueReader[] columns = new ValueReader[columnCount];
      for (int i = 0; i < columnCount; i++) {
        columns[i] = ValueReaders.forVector(batch.getVector(i));
      }
      return columns;
    });
  }

  @Override
  public Object current() {
    return current;
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
    if (reader == null) {
      resources.guard().check();
      reader = opener.get();
    }
    try {
      if (!rows.next(reader)) {
        close();
        return false;
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("reading a Lance scan failed: " + e.getMessage(), e);
    }
    current = rows.current();
    return true;
  }

  @Override
  public void reset() {
    throw new UnsupportedOperationException("a Lance scan cannot be rewound");
  }

  @Override
  public void close() {
    done = true;
    current = null;
    if (reader != null) {
      ArrowReader open = reader;
      reader = null;
      resources.release(open);
    }
  }
}
