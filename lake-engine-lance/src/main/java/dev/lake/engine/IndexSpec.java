package dev.lake.engine;

import java.util.Objects;

/**
 * A scalar index to build on one column.
 *
 * @param name the index's name, unique in the table
 * @param column the column's stored name (exact case)
 * @param kind BTREE or BITMAP
 */
public record IndexSpec(String name, String column, IndexKind kind) {
  public IndexSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(kind, "kind");
  }
}
