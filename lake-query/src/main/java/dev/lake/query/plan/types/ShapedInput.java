package dev.lake.query.plan.types;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.rel.type.RelDataType;

/**
 * An Enumerable child's rows in a shape lake's runtime calls read ({@link RowShape}: scalars, object arrays or lists);
 * rows of any other Java format are converted to arrays in the generated code.
 *
 * @param rows the expression of the rows (declared in the builder it was made with)
 * @param physType their physical type
 * @param shape their shape
 */
public record ShapedInput(Expression rows, PhysType physType, RowShape shape) {
  /** Declares {@code child}'s rows in {@code builder} as {@code name}, converted to arrays if need be. */
  public static ShapedInput of(EnumerableRelImplementor implementor, RelDataType rowType, EnumerableRel.Result child,
      BlockBuilder builder, String name) {
    Expression rows = builder.append(name, child.block);
    RowShape shape = shapeOf(child.physType.getFormat());
    if (shape != null) {
      return new ShapedInput(rows, child.physType, shape);
    }
    PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), rowType, JavaRowFormat.ARRAY);
    Expression converted = builder.append(name + "Arrays", child.physType.convertTo(rows, arrays.getFormat()));
    return new ShapedInput(converted, arrays, RowShape.ARRAY);
  }

  /** The shape of rows in {@code format}, or null when lake's calls cannot read it directly. */
  public static RowShape shapeOf(JavaRowFormat format) {
    switch (format) {
      case SCALAR:
        return RowShape.SCALAR;
      case ARRAY:
        return RowShape.ARRAY;
      case LIST:
        return RowShape.LIST;
      default:
        return null;
    }
  }
}
