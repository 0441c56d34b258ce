package dev.lake.query.vector;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Collects the rows of a join's build side, as the row runtime produces them (Calcite's values: Integer/Long/Short/
 * Byte, BigDecimal, Integer days for DATE, Double/Float, String, Boolean) or as columns (Arrow batches of a scanned
 * build side, the rows of a vectorized join tree), into columns, then builds the
 * {@link JoinTable}. Its memory is charged to the query's allocator as it grows (the query's memory limit bounds it);
 * it holds at most {@link JoinSpec#MAX_BUILD_ROWS} rows.
 */
public final class JoinBuilder {
  private static final int INITIAL_ROWS = 1_024;
  private static final int BYTES_PER_VALUE = 16;

  private final JoinSpec spec;
  private final MemoryBudget budget;
  private final long[][] longs;
  private final double[][] doubles;
  private final byte[][][] strings;
  private final boolean[][] nulls;
  private final BigDecimal[][] wide;
  private int rows;
  private int capacity = INITIAL_ROWS;

  /** A builder whose rows may take the query's whole memory limit (a refusal fails the query). */
  public JoinBuilder(JoinSpec spec, BufferAllocator allocator) {
    this(spec, allocator, false);
  }

  /**
   * A builder charged to {@code allocator}; when {@code spillable} (a refusal spills the build side) its rows leave
   * room for the batches streaming through ({@link MemoryBudget#spillable}).
   */
  public JoinBuilder(JoinSpec spec, BufferAllocator allocator, boolean spillable) {
    this.spec = spec;
    this.budget = spillable ? MemoryBudget.spillable(allocator) : new MemoryBudget(allocator);
    int width = spec.buildShapes().length;
    longs = new long[width][];
    doubles = new double[width][];
    strings = new byte[width][][];
    nulls = new boolean[width][];
    wide = new BigDecimal[width][];
    for (int c = 0; c < width; c++) {
      Kind kind = spec.buildShapes()[c].kind;
      if (kind == Kind.DOUBLE) {
        doubles[c] = new double[capacity];
      } else if (kind == Kind.STRING) {
        strings[c] = new byte[capacity][];
      } else {
        longs[c] = new long[capacity];
      }
    }
  }

  /** Adds one build row, its values in the row runtime's representation. */
  public void add(Object[] row) {
    if (rows == capacity) {
      grow();
    }
    for (int c = 0; c < longs.length; c++) {
      Object value = row[c];
      if (value == null) {
        if (nulls[c] == null) {
          nulls[c] = new boolean[capacity];
        }
        nulls[c][rows] = true;
        continue;
      }
      Col shape = spec.buildShapes()[c];
      switch (shape.kind) {
        case DOUBLE:
          doubles[c][rows] = ((Number) value).doubleValue();
          break;
        case STRING:
          strings[c][rows] = value.toString().getBytes(StandardCharsets.UTF_8);
          break;
        case BOOL:
          longs[c][rows] = Boolean.TRUE.equals(value) ? 1 : 0;
          break;
        default:
          storeLong(c, shape.scale, value);
      }
    }
    rows++;
  }

  private void storeLong(int c, int scale, Object value) {
    if (value instanceof BigDecimal) {
      BigDecimal scaled = ((BigDecimal) value).setScale(scale, java.math.RoundingMode.HALF_UP);
      if (scaled.unscaledValue().bitLength() < 64) {
        longs[c][rows] = scaled.unscaledValue().longValue();
      } else {
        if (wide[c] == null) {
          wide[c] = new BigDecimal[capacity];
        }
        wide[c][rows] = scaled;
      }
    } else if (value instanceof Number) {
      long v = ((Number) value).longValue();
      longs[c][rows] = scale == 0 ? v : BigDecimal.valueOf(v).setScale(scale).unscaledValue().longValueExact();
    } else {
      throw new IllegalStateException("a join's build side produced a " + value.getClass().getSimpleName()
          + " where a number was expected");
    }
  }

  /**
   * Adds every row of a batch of Arrow vectors (a build side that is a plain table scan: no detour through row
   * objects), its columns in build column order.
   */
  public void addBatch(List<FieldVector> vectors, int rowCount) {
    if (vectors.size() != longs.length) {
      throw new IllegalStateException("a scanned build side must deliver exactly the build columns");
    }
    add(ScanBatch.all(vectors, rowCount), longs.length);
  }

  /**
   * Adds every row of {@code chunk} (a build side that is itself a vectorized join: its rows as columns, no detour
   * through row objects), its columns the build columns in order. A refused charge adds none of its rows.
   */
  public void addRows(VectorResult chunk) {
    addRows(chunk.batch());
  }

  /** Adds every row of a batch whose first {@code width} columns are the build columns, in order. */
  void add(Batch batch, int width) {
    if (width != longs.length) {
      throw new IllegalStateException("a scanned build side must deliver exactly the build columns");
    }
    addRows(batch);
  }

  /** Adds every row of a batch of exactly the build columns, each once (a counted side's rows already repeated). */
  void addRows(Batch batch) {
    int rowCount = batch.size();
    while (capacity - rows < rowCount) {
      grow();
    }
    for (int c = 0; c < longs.length; c++) {
      Col col = batch.column(c);
      if (col.nulls == null && col.wide == null && strings[c] == null) {
        // the common case: one bulk copy
        if (doubles[c] != null) {
          System.arraycopy(col.doubles, 0, doubles[c], rows, rowCount);
        } else {
          System.arraycopy(col.longs, 0, longs[c], rows, rowCount);
        }
        continue;
      }
      for (int i = 0; i < rowCount; i++) {
        int at = rows + i;
        if (col.isNull(i)) {
          if (nulls[c] == null) {
            nulls[c] = new boolean[capacity];
          }
          nulls[c][at] = true;
        } else if (strings[c] != null) {
          strings[c][at] = col.strings.bytes(i);
        } else if (doubles[c] != null) {
          doubles[c][at] = col.doubles[i];
        } else if (col.isWide(i)) {
          if (wide[c] == null) {
            wide[c] = new BigDecimal[capacity];
          }
          wide[c][at] = col.wide[i];
        } else {
          longs[c][at] = col.longs[i];
        }
      }
    }
    rows += rowCount;
  }

  private void grow() {
    if (capacity >= JoinSpec.MAX_BUILD_ROWS) {
      throw new IllegalStateException("a vectorized join's build side has more than " + JoinSpec.MAX_BUILD_ROWS
          + " rows; add filters to the smaller tables of the join");
    }
    int grown = (int) Math.min(JoinSpec.MAX_BUILD_ROWS, 2L * capacity);
    budget.chargeTo((long) grown * BYTES_PER_VALUE * Math.max(1, longs.length));
    for (int c = 0; c < longs.length; c++) {
      longs[c] = longs[c] == null ? null : Arrays.copyOf(longs[c], grown);
      doubles[c] = doubles[c] == null ? null : Arrays.copyOf(doubles[c], grown);
      strings[c] = strings[c] == null ? null : Arrays.copyOf(strings[c], grown);
      nulls[c] = nulls[c] == null ? null : Arrays.copyOf(nulls[c], grown);
      wide[c] = wide[c] == null ? null : Arrays.copyOf(wide[c], grown);
    }
    capacity = grown;
  }

  /** The table over the rows added; closing it releases the memory charged for them. */
  public JoinTable finish() {
    return JoinTable.build(columns(), rows, spec.buildKeys(), budget);
  }

  /** The rows added so far. */
  int rows() {
    return rows;
  }

  /** The rows added so far as a batch of the build columns (for a build side that spills: {@link PartitionedBuild}). */
  Batch collected() {
    return Batch.of(columns(), rows);
  }

  private Col[] columns() {
    Col[] columns = new Col[longs.length];
    for (int c = 0; c < columns.length; c++) {
      Col shape = spec.buildShapes()[c];
      Col col = new Col(shape.kind, rows, shape.scale);
      col.longs = longs[c] == null ? null : Arrays.copyOf(longs[c], rows);
      col.doubles = doubles[c] == null ? null : Arrays.copyOf(doubles[c], rows);
      col.nulls = nulls[c] == null ? null : Arrays.copyOf(nulls[c], rows);
      col.wide = wide[c] == null ? null : Arrays.copyOf(wide[c], rows);
      col.strings = strings[c] == null ? null : StringSource.of(Arrays.copyOf(strings[c], rows));
      columns[c] = col;
    }
    return columns;
  }

  /** Releases the memory charged when the table is never built (a failed or cancelled build). */
  public void abandon() {
    budget.close();
  }
}
