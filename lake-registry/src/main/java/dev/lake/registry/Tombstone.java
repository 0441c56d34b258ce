package dev.lake.registry;

import java.time.Instant;
import java.util.Objects;

/** Written by drop: the garbage collector deletes the generation's files after the grace period, then this. */
public record Tombstone(String name, String generation, String location, Instant droppedAt) {
  public Tombstone {
    name = TableNames.normalize(name);
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(droppedAt, "droppedAt");
  }
}
