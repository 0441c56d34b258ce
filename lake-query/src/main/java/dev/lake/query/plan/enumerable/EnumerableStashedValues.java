package dev.lake.query.plan.enumerable;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.util.NlsString;
import com.google.common.collect.ImmutableList;

/**
 * A VALUES of many rows whose rows are handed to the compiled code as one stashed list instead of being written into
 * it: Calcite's {@link EnumerableValues} generates a Java expression per value, and a few thousand rows (an IN list
 * planned as a set, {@code dev.lake.query.sql.InLists}) exceed the size of a Java method and take seconds to
 * compile. The values are converted once to the Java values Calcite's runtime uses for their column types.
 */
final class EnumerableStashedValues extends Values implements EnumerableRel {
  /** Rows above which a VALUES is stashed rather than generated. */
  static final int MIN_ROWS = 64;

  private EnumerableStashedValues(RelOptCluster cluster, RelDataType rowType,
      ImmutableList<ImmutableList<RexLiteral>> tuples, RelTraitSet traits) {
    super(cluster, List.of(), rowType, tuples, traits);
  }

  /** {@code values} as a stashed VALUES, or empty when it is small or has a column type not converted here. */
  static Optional<RelNode> of(EnumerableValues values) {
    if (values.getTuples().size() < MIN_ROWS) {
      return Optional.empty();
    }
    for (RelDataTypeField field : values.getRowType().getFieldList()) {
      if (!supported(field.getType())) {
        return Optional.empty();
      }
    }
    return Optional.of(new EnumerableStashedValues(values.getCluster(), values.getRowType(), values.getTuples(),
        values.getTraitSet()));
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableStashedValues(getCluster(), getRowType(), tuples, traitSet);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), pref.preferArray());
    List<RelDataTypeField> fields = getRowType().getFieldList();
    boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
    List<Object> rows = new ArrayList<>(tuples.size());
    for (List<RexLiteral> tuple : tuples) {
      if (scalar) {
        rows.add(value(tuple.get(0), fields.get(0).getType()));
      } else {
        Object[] row = new Object[tuple.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = value(tuple.get(i), fields.get(i).getType());
        }
        rows.add(row);
      }
    }
    Expression stashed = implementor.stash(rows, List.class);
    BlockBuilder builder = new BlockBuilder();
    builder.add(Expressions.return_(null, Expressions.call(Linq4j.class, "asEnumerable", stashed)));
    return implementor.result(physType, builder.toBlock());
  }

  private static boolean supported(RelDataType type) {
    return switch (type.getSqlTypeName()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, FLOAT, DOUBLE, CHAR, VARCHAR, DATE, TIME,
          TIMESTAMP -> true;
      default -> false;
    };
  }

  /** The value Calcite's generated code uses for {@code literal} in a column of {@code type}. */
  private static Object value(RexLiteral literal, RelDataType type) {
    if (literal.isNull()) {
      return null;
    }
    return switch (type.getSqlTypeName()) {
      case BOOLEAN -> literal.getValueAs(Boolean.class);
      case TINYINT -> literal.getValueAs(BigDecimal.class).byteValueExact();
      case SMALLINT -> literal.getValueAs(BigDecimal.class).shortValueExact();
      case INTEGER -> literal.getValueAs(BigDecimal.class).intValueExact();
      case BIGINT -> literal.getValueAs(BigDecimal.class).longValueExact();
      // at the column's scale, as a value read from that column is (a hash join compares BigDecimal by equals)
      case DECIMAL -> literal.getValueAs(BigDecimal.class).setScale(type.getScale(), RoundingMode.UNNECESSARY);
      case REAL -> literal.getValueAs(BigDecimal.class).floatValue();
      case FLOAT, DOUBLE -> literal.getValueAs(Double.class);
      case CHAR, VARCHAR -> literal.getValueAs(NlsString.class).getValue();
      case DATE -> literal.getValueAs(Integer.class);
      case TIME -> literal.getValueAs(Integer.class);
      case TIMESTAMP -> literal.getValueAs(Long.class);
      default -> throw new IllegalStateException("no stashed value for " + type);
    };
  }
}
