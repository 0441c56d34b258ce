package dev.lake.engine;

import java.util.List;
import java.util.Objects;

/**
 * A scalar index a version of a table holds, as Lance's manifest lists it.
 *
 * @param name the index's name
 * @param columns the indexed columns (one for lake's indexes)
 * @param type Lance's index type (BTREE, BITMAP, ...)
 * @param builtAtVersion the version whose rows the index was built from; rows appended after it are scanned
 *     without the index (Lance combines both, answers stay exact)
 * @param fragments how many fragments the index covers
 */
public record TableIndex(String name, List<String> columns, String type, long builtAtVersion, int fragments) {
  public TableIndex {
    Objects.requireNonNull(name, "name");
    columns = List.copyOf(columns);
    Objects.requireNonNull(type, "type");
  }
}
