package dev.lake.engine;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Data files written but not committed: an opaque handle to commit through {@link TableEngine}. The fragment
 * descriptions stay valid across a restore (a rebuilt transaction reuses them).
 */
public final class StagedData {
  private final String location;
  private final Schema schema;
  private final long rowCount;
  private final List<?> fragments;
  private final Optional<Set<String>> columnsWithNulls;

  public StagedData(String location, Schema schema, long rowCount, List<?> fragments) {
    this(location, schema, rowCount, fragments, Optional.empty());
  }

  StagedData(String location, Schema schema, long rowCount, List<?> fragments,
      Optional<Set<String>> columnsWithNulls) {
    this.location = Objects.requireNonNull(location, "location");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.rowCount = rowCount;
    this.fragments = List.copyOf(fragments);
    this.columnsWithNulls = Objects.requireNonNull(columnsWithNulls, "columnsWithNulls").map(Set::copyOf);
  }

  public String location() {
    return location;
  }

  public Schema schema() {
    return schema;
  }

  public long rowCount() {
    return rowCount;
  }

  /** Engine-private fragment descriptions. */
  List<?> fragments() {
    return fragments;
  }

  /** The top-level columns holding at least one null, when the engine counted them while staging. */
  Optional<Set<String>> columnsWithNulls() {
    return columnsWithNulls;
  }
}
