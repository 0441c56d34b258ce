package dev.lake.query.plan;

import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;

/**
 * Reads one pinned table for Calcite's row runtime. Implemented by the executor; a table planned only for
 * {@code prepare} has none.
 */
public interface ScanSource {
  /**
   * A lazy enumerable over the table's rows: nothing is read until its enumerator moves, batches are read one at a
   * time, and closing the enumerator closes the scan.
   *
   * @param columns stored column names in output order; empty means no columns (rows carry no values)
   * @param filter a Lance filter every returned row satisfies
   * @param limit the most rows to return
   * @param shape how each row is represented (Calcite's physical row format)
   */
  Enumerable<Object> rows(List<String> columns, Optional<String> filter, Optional<Long> limit, RowShape shape);

  /**
   * Lance's own batches of the given stored columns (pass-through); the caller closes the reader.
   *
   * @param columns stored column names in output order, at least one
   */
  ArrowReader batches(List<String> columns, Optional<String> filter, Optional<Long> limit);
}
