package dev.lake.engine;

import java.util.Objects;

/** A data change to commit on a read version. */
public sealed interface TableChange {
  /** Adds the staged rows. */
  record Append(StagedData data) implements TableChange {
    public Append {
      Objects.requireNonNull(data, "data");
    }
  }

  /** Replaces all rows (and the schema) with the staged rows, in the same incarnation. */
  record Overwrite(StagedData data) implements TableChange {
    public Overwrite {
      Objects.requireNonNull(data, "data");
    }
  }
}
