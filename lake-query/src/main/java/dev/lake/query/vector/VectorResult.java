package dev.lake.query.vector;

import dev.lake.query.model.InexactResultException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.vector.BaseValueVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The result of a vectorized plan, column by column: its final columns with the plan's sort, offset and fetch
 * applied as a row order (nothing is copied into rows). {@link #fill} writes rows of it into Arrow vectors of the
 * statement's result types ({@link ResultWriters}); the typed accessors ({@link #integer}, {@link #decimal}, ...)
 * read a value as its {@link ResultType} gives it, for a consumer that needs the row runtime's values (the planner's
 * side converts: {@code dev.lake.query.plan.vector.VectorRows}). Heap only: nothing to close.
 */
public final class VectorResult {
  private final Col[] columns;
  private final List<VectorPlan.Output> types;
  /** The result's rows as positions in {@link #columns}, or null when they are rows {@code 0..rows) in order. */
  private final int[] order;
  private final int rows;

  private VectorResult(Col[] columns, List<VectorPlan.Output> types, int[] order, int rows) {
    this.columns = columns;
    this.types = List.copyOf(types);
    this.order = order;
    this.rows = rows;
  }

  /**
   * The final rows of {@code plan} computed into {@code batch}: every value checked to be representable in its
   * result type (a BIGINT past its range fails here, before any row is returned), then sorted (stable: equal keys
   * keep their order) and cut by the plan's offset and fetch.
   */
  static VectorResult of(Batch batch, VectorPlan plan) {
    Col[] columns = columns(batch, plan.output().size());
    VectorResult all = new VectorResult(columns, plan.output(), null, batch.size());
    all.checkIntegers();
    int[] order = plan.sort().isEmpty() ? null : ResultOrder.sorted(all, plan.sort());
    int size = batch.size();
    int from = (int) Math.min(size, plan.offset());
    int to = plan.fetch().map(f -> (int) Math.min(size, from + f)).orElse(size);
    if (order == null && from == 0 && to == size) {
      return all;
    }
    int[] cut = new int[to - from];
    for (int i = 0; i < cut.length; i++) {
      cut[i] = order == null ? from + i : order[from + i];
    }
    return new VectorResult(columns, plan.output(), cut, cut.length);
  }

  /** No rows, with {@code plan}'s result columns (each an empty column of its kind). */
  static VectorResult empty(VectorPlan plan) {
    Col[] columns = new Col[plan.output().size()];
    for (int c = 0; c < columns.length; c++) {
      VectorPlan.Output output = plan.output().get(c);
      switch (output.type()) {
        case DOUBLE:
        case FLOAT:
          columns[c] = Col.doubles(0);
          break;
        case BOOLEAN:
          columns[c] = Col.bools(0);
          break;
        case STRING:
          columns[c] = new Col(Kind.STRING, 0, 0);
          columns[c].strings = StringSource.of(new byte[0][]);
          break;
        default:
          columns[c] = Col.longs(0, output.type() == ResultType.DECIMAL ? output.scale() : 0);
      }
    }
    return new VectorResult(columns, plan.output(), null, 0);
  }

  /**
   * The rows of {@code batch} in order, as {@code types} give them (a chunk of a scan; a BIGINT past its range fails
   * when its value is read).
   */
  static VectorResult rows(Batch batch, List<VectorPlan.Output> types) {
    return new VectorResult(columns(batch, types.size()), types, null, batch.size());
  }

  private static Col[] columns(Batch batch, int count) {
    Col[] columns = new Col[count];
    for (int c = 0; c < count; c++) {
      columns[c] = batch.column(c);
    }
    return columns;
  }

  /** The rows as one batch of the result columns, in order (the sort and cut applied). */
  Batch batch() {
    Batch all = Batch.of(columns, order == null ? rows : columns.length == 0 ? 0 : columns[0].size);
    return order == null ? all : all.select(order, rows);
  }

  public int rowCount() {
    return rows;
  }

  public int columnCount() {
    return columns.length;
  }

  /** How column {@code column}'s values are given. */
  public VectorPlan.Output type(int column) {
    return types.get(column);
  }

  /**
   * Sets one non-null value in the row runtime's representation ({@link #boxed}) at a vector position:
   * the row runtime's own writer, for a pairing of result type and vector that has no natural writer, so both
   * runtimes convert such values the same way.
   */
  @FunctionalInterface
  public interface BoxedWriter {
    void set(int at, Object value);
  }

  /** The {@link BoxedWriter} of a vector. */
  @FunctionalInterface
  public interface BoxedWriters {
    BoxedWriter forVector(FieldVector vector);
  }

  /**
   * Writes rows {@code from ..} of this result into {@code out}'s vectors (cleared first; of the statement's result
   * types, column by column in order), at most {@code maxRows} rows and ending early once the vectors' buffers pass
   * {@code maxBytes}; sets the row count. A column whose vector is not of its natural type is written through
   * {@code boxedWriters}, the row runtime's writers.
   *
   * @return the rows written (0 when {@code from} is past the end)
   */
  public int fill(VectorSchemaRoot out, int from, int maxRows, long maxBytes,
      BoxedWriters boxedWriters) {
    List<FieldVector> vectors = out.getFieldVectors();
    if (vectors.size() != columns.length) {
      throw new IllegalStateException("a vectorized result of " + columns.length + " columns cannot fill a batch of "
          + vectors.size());
    }
    ResultWriters.Writer[] writers = new ResultWriters.Writer[columns.length];
    // A batch of a few rows (a point query) gets vectors for those rows, not Arrow's default of ~4,000 values per
    // column allocated and released on every execution; the writers grow a vector a longer value does not fit.
    long expected = Math.max(1, Math.min(rows - (long) from, maxRows));
    int capacity = (int) Math.min(expected, BaseValueVector.INITIAL_VALUE_ALLOCATION);
    for (int c = 0; c < writers.length; c++) {
      FieldVector vector = vectors.get(c);
      vector.clear();
      vector.setInitialCapacity(capacity);
      vector.allocateNew();
      writers[c] = ResultWriters.forVector(vector, this, c, boxedWriters);
    }
    int end = (int) Math.min(rows, (long) from + Math.max(0, maxRows));
    int written = 0;
    for (int start = from; start < end; ) {
      int stop = Math.min(end, start + ResultWriters.CHUNK_ROWS);
      for (ResultWriters.Writer writer : writers) {
        writer.write(start, stop, start - from);
      }
      written = stop - from;
      start = stop;
      if (start < end && bytes(vectors, written) >= maxBytes) {
        break;
      }
    }
    for (FieldVector vector : vectors) {
      vector.setValueCount(written);
    }
    out.setRowCount(written);
    return written;
  }

  private static long bytes(List<FieldVector> vectors, int rows) {
    long bytes = 0;
    for (FieldVector vector : vectors) {
      bytes += vector.getBufferSizeFor(rows);
    }
    return bytes;
  }

  /** The position in the columns of result row {@code row}. */
  int position(int row) {
    return order == null ? row : order[row];
  }

  Col column(int column) {
    return columns[column];
  }

  public boolean isNull(int row, int column) {
    return columns[column].isNull(position(row));
  }

  /**
   * An integer result (BIGINT, INTEGER, SMALLINT, TINYINT, DATE as days) as a long, before its narrowing to the
   * column's width; a decimal or double value is truncated toward zero.
   */
  public long integer(int row, int column) {
    return integer(columns[column], position(row));
  }

  /** A DECIMAL result at its column's scale, rounded HALF_UP. */
  public BigDecimal decimal(int row, int column) {
    return decimal(columns[column], position(row), types.get(column).scale());
  }

  /** A DOUBLE or FLOAT result (a FLOAT is narrowed by its consumer). */
  public double real(int row, int column) {
    return columns[column].asDouble(position(row));
  }

  public boolean bool(int row, int column) {
    return columns[column].longs[position(row)] == 1;
  }

  /** A STRING result's UTF-8 bytes. */
  public byte[] utf8(int row, int column) {
    return columns[column].strings.bytes(position(row));
  }

  public String string(int row, int column) {
    return new String(utf8(row, column), StandardCharsets.UTF_8);
  }

  /**
   * Row {@code row}'s value of {@code column} boxed as its {@link ResultType} gives it (Long, Integer, Short, Byte,
   * Integer days, BigDecimal, Double, Float, Boolean, String), or null.
   */
  Object boxed(int row, int column) {
    Col col = columns[column];
    int i = position(row);
    if (col.isNull(i)) {
      return null;
    }
    VectorPlan.Output type = types.get(column);
    switch (type.type()) {
      case BIGINT:
        return integer(col, i);
      case INTEGER:
      case DATE:
        return (int) narrowed(integer(col, i), type.type());
      case SMALLINT:
        return (short) narrowed(integer(col, i), type.type());
      case TINYINT:
        return (byte) narrowed(integer(col, i), type.type());
      case DECIMAL:
        return decimal(col, i, type.scale());
      case DOUBLE:
        return col.asDouble(i);
      case FLOAT:
        return (float) col.asDouble(i);
      case BOOLEAN:
        return col.longs[i] == 1;
      case STRING:
        return new String(col.strings.bytes(i), StandardCharsets.UTF_8);
      default:
        throw new IllegalStateException("the vectorized executor cannot return SQL type " + type.type());
    }
  }

  static BigDecimal decimal(Col col, int i, int scale) {
    return col.kind == Kind.DOUBLE ? BigDecimal.valueOf(col.doubles[i]).setScale(scale, RoundingMode.HALF_UP)
        : col.decimal(i).setScale(scale, RoundingMode.HALF_UP);
  }

  /**
   * {@code value} of an INTEGER, SMALLINT, TINYINT or DATE result, which this executor computes in longs: a value
   * beyond the type is refused naming it, never narrowed into a wrapped one (docs/api.md, "Exactness").
   */
  public static long narrowed(long value, ResultType type) {
    long bound = switch (type) {
      case INTEGER, DATE -> Integer.MAX_VALUE;
      case SMALLINT -> Short.MAX_VALUE;
      case TINYINT -> Byte.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
    if (value > bound || value < -bound - 1) {
      throw new InexactResultException(type + " overflow: " + value + " is beyond " + type + "'s range");
    }
    return value;
  }

  static long integer(Col col, int i) {
    if (col.kind == Kind.DOUBLE) {
      return (long) col.doubles[i];
    }
    if (col.isWide(i) || col.scale != 0) {
      BigDecimal value = col.decimal(i).setScale(0, RoundingMode.DOWN);
      try {
        return value.longValueExact();
      } catch (ArithmeticException e) {
        throw new InexactResultException("BIGINT overflow: " + value.toPlainString() + " is beyond"
            + " BIGINT's range (a SUM of BIGINT values fails rather than wrap; SUM(CAST(x AS DECIMAL(38, 0))) sums"
            + " exactly)");
      }
    }
    return col.longs[i];
  }

  /**
   * Fails as converting the rows in order would, at the first value (row by row) of an integer result beyond
   * BIGINT's range.
   */
  private void checkIntegers() {
    int[] checked = new int[columns.length];
    int count = 0;
    for (int c = 0; c < columns.length; c++) {
      Col col = columns[c];
      if (integral(types.get(c).type()) && col.kind == Kind.LONG && (col.wide != null || col.scale != 0)) {
        checked[count++] = c;
      }
    }
    for (int i = 0; i < rows && count > 0; i++) {
      for (int k = 0; k < count; k++) {
        Col col = columns[checked[k]];
        if (!col.isNull(i)) {
          integer(col, i);
        }
      }
    }
  }

  private static boolean integral(ResultType type) {
    switch (type) {
      case BIGINT:
      case INTEGER:
      case SMALLINT:
      case TINYINT:
      case DATE:
        return true;
      default:
        return false;
    }
  }
}
