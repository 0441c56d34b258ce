package dev.lake.query.exec;

import dev.lake.engine.TableSnapshot;
import dev.lake.query.guard.QueryGuard;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The scan of a wide table without a filter, read as rows by column groups: each batch is a range of rows, read one
 * group of at most {@link #GROUP_COLUMNS} columns at a time ({@link TableSnapshot#readRows}, one short Lance call
 * each) and stitched side by side into one batch of the columns asked for, in their order. The query's stop flag is
 * polled before every call, and a close from another thread (a cancel) waits for at most the call in flight.
 *
 * <p>Why: Lance 7.0's scanner converts the table's whole schema (an O(n²) validation for n columns) once for every
 * projected column and twice more when it plans the scan; for 10,000 columns one conversion takes seconds, so a
 * scanner over such a table spends minutes in one native call that nothing can interrupt. A take by row offsets
 * costs what the rows and columns it reads cost (docs/operations.md, "Query deadlines").
 */
final class WideScan extends ArrowReader {
  /** The most columns one Lance call reads; also the table width from which a scan is read this way. */
  static final int GROUP_COLUMNS = 256;
  /** About how many values one batch holds (rows × columns), so a batch of a wide table stays a few MB. */
  static final long BATCH_CELLS = 2_000_000;

  private final TableSnapshot snapshot;
  private final QueryResources resources;
  private final QueryGuard guard;
  private final List<String> columns;
  private final Schema schema;
  private final long end;
  private final int batchRows;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final Object lock = new Object();
  private long next;

  /**
   * @param columns the columns to read, in this order (non-empty)
   * @param first the first row to read (numbered in scan order)
   * @param rows how many rows to read from there (bounded by the version's rows)
   */
  WideScan(TableSnapshot snapshot, QueryResources resources, List<String> columns, long first, long rows,
      int batchSize) {
    super(resources.allocator());
    this.snapshot = snapshot;
    this.resources = resources;
    this.guard = resources.guard();
    this.columns = List.copyOf(columns);
    this.schema = project(snapshot.schema(), this.columns);
    this.next = first;
    this.end = first + rows;
    this.batchRows = (int) Math.max(1, Math.min(batchSize, BATCH_CELLS / this.columns.size()));
  }

  /**
   * Whether a scan of {@code columns} (empty: all) of {@code snapshot} with {@code filter} is read this way: the
   * table is wider than {@link #GROUP_COLUMNS} and Lance is not asked to filter.
   */
  static boolean applies(TableSnapshot snapshot, Optional<String> filter) {
    return filter.filter(f -> !f.isBlank()).isEmpty() && snapshot.schema().getFields().size() > GROUP_COLUMNS;
  }

  /** A wide scan of the whole version, or of its first {@code limit} rows. */
  static WideScan of(TableSnapshot snapshot, QueryResources resources, List<String> columns, Optional<Long> limit,
      int batchSize) {
    long rows = snapshot.countRows();
    return new WideScan(snapshot, resources, columns, 0, Math.min(rows, limit.orElse(rows)), batchSize);
  }

  /**
   * A wide scan of {@code fragments} from their {@code offset}-th row ({@code limit} rows at most), when they are
   * consecutive in the version's order (rows are numbered across fragments in that order); empty otherwise.
   */
  static Optional<WideScan> ofFragments(TableSnapshot snapshot, QueryResources resources, List<String> columns,
      List<Integer> fragments, long offset, Optional<Long> limit, int batchSize) {
    List<Integer> all = snapshot.fragmentIds();
    int start = fragments.isEmpty() ? -1 : all.indexOf(fragments.get(0));
    if (start < 0 || start + fragments.size() > all.size()
        || !all.subList(start, start + fragments.size()).equals(fragments)) {
      return Optional.empty();
    }
    long before = 0;
    for (int i = 0; i < start; i++) {
      before += snapshot.fragmentRows(all.get(i));
    }
    long rows = 0;
    for (int fragment : fragments) {
      rows += snapshot.fragmentRows(fragment);
    }
    long available = Math.max(0, rows - offset);
    return Optional.of(new WideScan(snapshot, resources, columns, before + Math.min(offset, rows),
        Math.min(available, limit.orElse(available)), batchSize));
  }

  /** The column groups of one batch, in order. */
  static List<List<String>> groups(List<String> columns) {
    List<List<String>> groups = new ArrayList<>();
    for (int from = 0; from < columns.size(); from += GROUP_COLUMNS) {
      groups.add(columns.subList(from, Math.min(columns.size(), from + GROUP_COLUMNS)));
    }
    return groups;
  }

  @Override
  public boolean loadNextBatch() {
    synchronized (lock) {
      VectorSchemaRoot out = getVectorSchemaRootUnchecked();
      if (next >= end) {
        out.setRowCount(0);
        return false;
      }
      int rows = (int) Math.min(batchRows, end - next);
      List<FieldVector> targets = out.getFieldVectors();
      int at = 0;
      for (List<String> group : groups(columns)) {
        stopIfAsked();
        ArrowReader part = resources.track(snapshot.readRows(group, next, rows));
        try {
          int read = 0;
          while (part.loadNextBatch()) {
            VectorSchemaRoot batch = part.getVectorSchemaRoot();
            if (batch.getRowCount() == 0) {
              continue;
            }
            if (read > 0 || batch.getRowCount() != rows || batch.getFieldVectors().size() != group.size()) {
              throw new IllegalStateException("Lance returned " + batch.getRowCount() + " rows of "
                  + batch.getFieldVectors().size() + " columns for a read of " + rows + " rows of " + group.size()
                  + " columns");
            }
            for (int i = 0; i < group.size(); i++) {
              VectorCopy.copy(batch.getVector(i), targets.get(at + i), rows);
            }
            read = rows;
          }
          if (read != rows) {
            throw new IllegalStateException("Lance returned no rows for a read of " + rows + " rows");
          }
        } catch (java.io.IOException e) {
          throw new IllegalStateException("reading rows of a wide table failed: " + e.getMessage(), e);
        } finally {
          resources.release(part);
        }
        at += group.size();
      }
      out.setRowCount(rows);
      next += rows;
      return true;
    }
  }

  private VectorSchemaRoot getVectorSchemaRootUnchecked() {
    try {
      return getVectorSchemaRoot();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private void stopIfAsked() {
    guard.check();
    if (closing.get()) {
      throw new IllegalStateException("the query was closed or cancelled; its tables cannot be read any more");
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }

  /** A close from another thread asks the loading one to stop first, then waits for at most its Lance call. */
  @Override
  public void close() throws java.io.IOException {
    closing.set(true);
    synchronized (lock) {
      super.close();
    }
  }

  @Override
  protected void closeReadSource() {
    // the parts are released as they are read; an unread one is closed with the query's resources
  }

  private static Schema project(Schema table, List<String> columns) {
    Map<String, Field> byName = new HashMap<>();
    for (Field field : table.getFields()) {
      byName.put(field.getName(), field);
    }
    List<Field> fields = new ArrayList<>(columns.size());
    for (String column : columns) {
      Field field = byName.get(column);
      if (field == null) {
        throw new IllegalArgumentException("the table has no column " + column);
      }
      fields.add(field);
    }
    return new Schema(fields);
  }
}
