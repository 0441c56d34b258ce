package dev.lake.query.plan.lance;

import dev.lake.query.plan.types.ArrowTypeMapping;
import dev.lake.query.model.TablePin;
import dev.lake.query.model.TableReference;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import java.util.OptionalDouble;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
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
 * it) and the distinct counts of its columns (estimated on demand, {@link ColumnStatistics}) feed the join-order
 * heuristics: Calcite asks this table for the distinct values of a scan's columns. Until they are known the table
 * counts as unknown-sized.
 */
public final class LanceTable extends AbstractTable implements TranslatableTable,
    BuiltInMetadata.DistinctRowCount.Handler {
  private final TableReference reference;
  private final TablePin pin;
  private final Schema schema;
  private volatile RelDataType rowType;
  private volatile long rowCount = -1;
  private volatile ColumnStatistics statistics = ColumnStatistics.UNKNOWN;
  private volatile List<dev.lake.query.model.ColumnIndex> indexes = List.of();
  private volatile dev.lake.query.model.PlannedVersion planned;

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

  /** The stored schema of the pinned version. */
  public Schema schema() {
    return schema;
  }

  /**
   * Records what the statement over this table is planned over: the first version an execution described (the pinned
   * one); later calls keep the first. A cached plan runs on a later version only if that is a small append of this one
   * ({@link dev.lake.query.model.PlannedVersion#isSmallAppend}).
   */
  public synchronized void plannedOver(java.util.function.Supplier<dev.lake.query.model.PlannedVersion> version) {
    if (planned == null) {
      planned = version.get();
    }
  }

  /** What the statement was planned over, once an execution described this table; else empty. */
  public java.util.Optional<dev.lake.query.model.PlannedVersion> plannedVersion() {
    return java.util.Optional.ofNullable(planned);
  }

  /** The stored fields, in table order. */
  public List<Field> fields() {
    return schema.getFields();
  }

  /** The stored schema-level metadata (e.g. pandas' {@code pandas} key); empty when there is none. */
  public java.util.Map<String, String> schemaMetadata() {
    return schema.getCustomMetadata() == null ? java.util.Map.of() : schema.getCustomMetadata();
  }

  /** Records the row count of the pinned version (metadata only; the same for every execution of this pin). */
  public void rowCount(long rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("a row count must be >= 0, was " + rows);
    }
    rowCount = rows;
  }

  /** Records the scalar indexes of the pinned version (a fact of that version, read from its manifest). */
  public void indexes(List<dev.lake.query.model.ColumnIndex> pinned) {
    indexes = List.copyOf(pinned);
  }

  /** The scalar indexes of the pinned version, once an execution opened it (else none). */
  public List<dev.lake.query.model.ColumnIndex> indexes() {
    return indexes;
  }

  /** Where distinct counts of this version's columns come from (set when an execution opens the version). */
  public void statistics(ColumnStatistics source) {
    statistics = java.util.Objects.requireNonNull(source, "source");
  }

  /** The estimated distinct values of stored columns (as a set), or empty when unknown. */
  public OptionalDouble distinctValues(List<String> columns) {
    return statistics.distinctValues(columns);
  }

  /** Distinct values of a scan's columns (as a set), at most the scan's rows; unknown when not estimated. */
  @Override
  public Double getDistinctRowCount(RelNode rel, RelMetadataQuery mq, ImmutableBitSet groupKey, RexNode predicate) {
    if (!(rel instanceof LanceTableScan)) {
      return null;
    }
    LanceTableScan scan = (LanceTableScan) rel;
    Double rows = mq.getRowCount(scan);
    if (rows == null) {
      return null;
    }
    if (groupKey.isEmpty()) {
      return 1D;
    }
    List<String> columns = new java.util.ArrayList<>();
    for (int column : groupKey) {
      columns.add(fields().get(scan.projects().get(column)).getName());
    }
    OptionalDouble distinct = statistics.distinctValues(columns);
    return distinct.isEmpty() ? null : Math.min(Math.max(1, distinct.getAsDouble()), rows);
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
