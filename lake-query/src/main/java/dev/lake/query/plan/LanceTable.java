package dev.lake.query.plan;

import dev.lake.query.TablePin;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A lake table as one statement sees it: the pinned registration, the stored Arrow schema and, when the statement
 * executes, the {@link ScanSource} over exactly that version. Converts to a {@link LanceTableScan}.
 */
public final class LanceTable extends AbstractTable implements TranslatableTable {
  private final TablePin pin;
  private final Schema schema;
  private final ScanSource source;
  private RelDataType rowType;

  /**
   * @param source the reader over the pinned version, or null when the statement is only prepared
   */
  public LanceTable(TablePin pin, Schema schema, ScanSource source) {
    this.pin = Objects.requireNonNull(pin, "pin");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.source = source;
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

  public Optional<ScanSource> source() {
    return Optional.ofNullable(source);
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
