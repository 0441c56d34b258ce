package dev.lake.query.model;

import java.util.Objects;

/**
 * A scalar index a pinned version of a table holds on one column (Lance's BTREE or BITMAP; {@code lake.create_index},
 * docs/api.md), as the planner sees it.
 *
 * @param name the index's name
 * @param column the indexed column's stored name
 * @param type Lance's index type
 */
public record ColumnIndex(String name, String column, String type) {
  public ColumnIndex {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(type, "type");
  }

  @Override
  public String toString() {
    return name + " " + type;
  }
}
