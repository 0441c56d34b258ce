package dev.lake.query.model;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a statement's plan was made over, for one table: the pinned version's stored schema, its rows, its scalar
 * indexes and the digests of its fragment keys (data files and deletion state, which never change). A later version
 * of the same registration that is a <em>small append</em> of it ({@link #isSmallAppend}) answers every plan made
 * over this one exactly — the plan holds no data of the version, only choices its statistics steered — so a cached
 * plan may run on it instead of being planned again (docs/performance.md, "Plans across appends").
 *
 * @param version the version planned over
 * @param schema its stored Arrow schema (fields, types and schema metadata)
 * @param rows its row count
 * @param indexes its single-column scalar indexes
 * @param fragments the digests of its fragments' keys
 */
public record PlannedVersion(long version, Schema schema, long rows, List<ColumnIndex> indexes,
    Set<String> fragments) {
  public PlannedVersion {
    Objects.requireNonNull(schema, "schema");
    indexes = List.copyOf(indexes);
    fragments = Set.copyOf(fragments);
    if (rows < 0) {
      throw new IllegalArgumentException("a row count must be >= 0, was " + rows);
    }
  }

  /**
   * Whether {@code later} adds rows to this version and changes nothing else a plan depends on: a newer version with
   * the same schema and the same indexes, holding every fragment of this one unchanged and at most a tenth more rows
   * ({@link #smallAppend}). An overwrite, a delete, a compaction, an index build or a schema change is not one.
   */
  public boolean isSmallAppend(PlannedVersion later) {
    return later.version > version && later.schema.equals(schema) && later.indexes.equals(indexes)
        && smallAppend(fragments, rows, later.fragments, later.rows);
  }

  /**
   * The rule for reusing what was learned of one version on a later one (a plan, a distinct-value sketch): the later
   * one holds every earlier fragment unchanged and has at least as many rows and at most a tenth more.
   */
  public static boolean smallAppend(Set<String> fragmentsBefore, long rowsBefore, Set<String> fragmentsAfter,
      long rowsAfter) {
    return fragmentsAfter.containsAll(fragmentsBefore) && rowsAfter >= rowsBefore
        && rowsAfter - rowsBefore <= rowsBefore / 10;
  }
}
