package dev.lake.flight.demo;

import io.trino.tpch.Customer;
import io.trino.tpch.LineItem;
import io.trino.tpch.Order;
import io.trino.tpch.Part;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.Supplier;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * TPC-H tables from the io.trino.tpch 1.2 generators as Arrow batches: identifiers BIGINT, integers INT, dates DATE,
 * text VARCHAR, and money, rates and quantities DECIMAL(15,2) from the generators' exact integer getters (the
 * {@code ...InCents()} ones; rates in percent and whole quantities are the same hundredths) — never through a double.
 * Each batch is written into freshly allocated (aligned) vectors.
 */
public final class TpchBatches {
  private static final ArrowType DECIMAL = new ArrowType.Decimal(15, 2, 128);
  /** Exact hundredths of every DECIMAL column, by column name. */
  private static final Map<String, ToLongFunction<TpchEntity>> HUNDREDTHS = Map.of(
      "l_quantity", e -> ((LineItem) e).getQuantity() * 100,
      "l_extendedprice", e -> ((LineItem) e).getExtendedPriceInCents(),
      "l_discount", e -> ((LineItem) e).getDiscountPercent(),
      "l_tax", e -> ((LineItem) e).getTaxPercent(),
      "o_totalprice", e -> ((Order) e).getTotalPriceInCents(),
      "c_acctbal", e -> ((Customer) e).getAccountBalanceInCents(),
      "s_acctbal", e -> ((Supplier) e).getAccountBalanceInCents(),
      "p_retailprice", e -> ((Part) e).getRetailPriceInCents(),
      "ps_supplycost", e -> ((PartSupplier) e).getSupplyCostInCents());

  private TpchBatches() {}

  /** The Arrow schema lake and DuckDB store {@code table} with. */
  public static Schema schema(TpchTable<?> table) {
    List<Field> fields = new ArrayList<>();
    for (TpchColumn<?> column : table.getColumns()) {
      fields.add(Field.notNullable(column.getColumnName(), type(column)));
    }
    return new Schema(fields);
  }

  private static ArrowType type(TpchColumn<?> column) {
    switch (column.getType().getBase()) {
      case IDENTIFIER: return new ArrowType.Int(64, true);
      case INTEGER: return new ArrowType.Int(32, true);
      case DATE: return new ArrowType.Date(DateUnit.DAY);
      case DOUBLE:
        if (!HUNDREDTHS.containsKey(column.getColumnName())) {
          throw new IllegalStateException("no exact getter for TPC-H column " + column.getColumnName());
        }
        return DECIMAL;
      default: return ArrowType.Utf8.INSTANCE;
    }
  }

  /** A reader generating {@code table} at scale factor {@code scale}, {@code batchRows} rows per batch. */
  public static <E extends TpchEntity> ArrowReader reader(TpchTable<E> table, double scale, int batchRows,
      BufferAllocator allocator) {
    return new Generated<>(table, scale, batchRows, allocator);
  }

  private static final class Generated<E extends TpchEntity> extends ArrowReader {
    private final TpchTable<E> table;
    private final Schema schema;
    private final Iterator<E> rows;
    private final int batchRows;

    Generated(TpchTable<E> table, double scale, int batchRows, BufferAllocator allocator) {
      super(allocator);
      this.table = table;
      this.schema = schema(table);
      this.rows = table.createGenerator(scale, 1, 1).iterator();
      this.batchRows = batchRows;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
      if (!rows.hasNext()) {
        return false;
      }
      VectorSchemaRoot root = getVectorSchemaRoot();
      root.clear();
      root.allocateNew();
      List<TpchColumn<E>> columns = table.getColumns();
      int count = 0;
      while (count < batchRows && rows.hasNext()) {
        E row = rows.next();
        for (int c = 0; c < columns.size(); c++) {
          set(root.getVector(c), columns.get(c), row, count);
        }
        count++;
      }
      root.setRowCount(count);
      return true;
    }

    private static <E extends TpchEntity> void set(FieldVector vector, TpchColumn<E> column, E row, int index) {
      switch (column.getType().getBase()) {
        case IDENTIFIER:
          ((BigIntVector) vector).setSafe(index, column.getIdentifier(row));
          break;
        case INTEGER:
          ((IntVector) vector).setSafe(index, column.getInteger(row));
          break;
        case DATE:
          ((DateDayVector) vector).setSafe(index, column.getDate(row));
          break;
        case DOUBLE:
          ((DecimalVector) vector).setSafe(index, HUNDREDTHS.get(column.getColumnName()).applyAsLong(row));
          break;
        default:
          ((VarCharVector) vector).setSafe(index, column.getString(row).getBytes(StandardCharsets.UTF_8));
      }
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
