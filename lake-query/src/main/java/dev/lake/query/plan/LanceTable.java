package dev.lake.query.plan;

import dev.lake.query.TablePin;
import dev.lake.query.TableReference;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A lake table as one statement sees it: the reference as the statement names it, the pinned registration and the
 * stored Arrow schema. Holds nothing of an execution (no Lance handle, no allocator), so a validated plan over it
 * can be cached and run many times: each execution binds a {@link ScanSource} per reference
 * ({@link LanceScanCall#sourceVariable}). Converts to a {@link LanceTableScan}.
 *
 * <p>The row count of the pinned version (a fact of that version, read from Lance's metadata when an execution opens
 * it) feeds the join-order heuristics; until it is known the table counts as unknown-sized.
 */
public final class LanceTable extends AbstractTable implements TranslatableTable {
  private final TableReference reference;
  private final TablePin pin;
  private final Schema schema;
  private volatile RelDataType rowType;
  private volatile long rowCount = -1;

  public LanceTable(TableReference reference, TablePin pin, Schema schema) {
    this.reference = Objects.requireNonNull(reference, "reference");
    this.pin = Objects.requireNonNull(pin, "pin");
    this.schema = Objects.requireNonNull(schema, "schema");
  }

  /** How the statement names this table (its key binds the scan source of an execution). */
  public TableReference reference() {
    return reference;
  }

  public TablePin pin() {
    return pin;
  }

  public String name() {
    return pin.name();
  }

  /** The stored fields, in table order. */
  public List<Field> fields() {
    return schema.getFields();
  }

  /** Records the row count of the pinned version (metadata only; the same for every execution of this pin). */
  public void rowCount(long rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("a row count must be >= 0, was " + rows);
    }
    rowCount = rows;
  }

  @Override
  public Statistic getStatistic() {
    long rows = rowCount;
    return rows < 0 ? Statistics.UNKNOWN : Statistics.of(rows, List.of());
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    if (rowType == null) {
      rowType = ArrowTypeMapping.toRowType(pin.name(), schema, typeFactory);
    }
    return rowType;
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return LanceTableScan.of(context.getCluster(), relOptTable, this);
  }
}
