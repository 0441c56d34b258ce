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
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A lake table as one statement sees it: the reference as the statement names it, the pinned registration and the
 * stored Arrow schema. Holds nothing of an execution (no Lance handle, no allocator), so a validated plan over it
 * can be cached and run many times: each execution binds a {@link ScanSource} per reference
 * ({@link LanceScanCall#sourceVariable}). Converts to a {@link LanceTableScan}.
 */
public final class LanceTable extends AbstractTable implements TranslatableTable {
  private final TableReference reference;
  private final TablePin pin;
  private final Schema schema;
  private volatile RelDataType rowType;

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
