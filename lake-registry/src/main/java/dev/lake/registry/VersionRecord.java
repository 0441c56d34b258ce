package dev.lake.registry;

import java.time.Instant;
import java.util.Objects;

/** A history item: {@code version} of incarnation {@code generation} was registered at {@code registeredAt}. */
public record VersionRecord(String table, String generation, long version, Instant registeredAt) {
  public VersionRecord {
    table = TableNames.normalize(table);
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(registeredAt, "registeredAt");
    if (version < 1) throw new IllegalArgumentException("version must be >= 1, was " + version);
  }
}
