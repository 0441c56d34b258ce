package dev.lake.it.tpch;

import dev.lake.flight.demo.TpchBatches;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * TPC-H tables as Arrow batches for the tests and the benchmark: the generator {@code lake server --demo} loads
 * ({@link TpchBatches}: identifiers BIGINT, integers INT, dates DATE, text VARCHAR, money, rates and quantities
 * DECIMAL(15,2) from the exact integer getters), so the demo data is the data these tests check against DuckDB.
 */
public final class TpchArrow {
  private TpchArrow() {}

  /** The Arrow schema lake and DuckDB store {@code table} with. */
  public static Schema schema(TpchTable<?> table) {
    return TpchBatches.schema(table);
  }

  /** A reader generating {@code table} at scale factor {@code scale}, {@code batchRows} rows per batch. */
  public static <E extends TpchEntity> ArrowReader reader(TpchTable<E> table, double scale, int batchRows,
      BufferAllocator allocator) {
    return TpchBatches.reader(table, scale, batchRows, allocator);
  }
}
