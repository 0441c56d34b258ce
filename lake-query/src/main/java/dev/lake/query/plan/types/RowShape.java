package dev.lake.query.plan.types;

/** How a row reaches Calcite's generated code (its {@code JavaRowFormat}). */
public enum RowShape {
  /** One column: the value itself. */
  SCALAR,
  /** Two or more columns: an {@code Object[]}. */
  ARRAY,
  /** Any number of columns as a {@code List}; Calcite uses it for rows without columns. */
  LIST
}
