package dev.lake.engine;

import java.time.Instant;
import java.util.Objects;

/**
 * One file of a table location, as its {@link ObjectStore} lists it.
 *
 * @param path the path relative to the table location, {@code /}-separated (e.g. {@code data/0101...lance})
 * @param size the size in bytes
 * @param lastModified when the file was last written (the store's clock)
 */
public record StoredFile(String path, long size, Instant lastModified) {
  public StoredFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(lastModified, "lastModified");
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative, was " + size);
    }
  }
}
