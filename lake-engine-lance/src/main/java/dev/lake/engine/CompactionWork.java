package dev.lake.engine;

import java.util.List;
import java.util.Objects;

/**
 * Compaction rewritten but not committed: the new data files exist, no version references them yet. An opaque
 * handle made by {@link TableEngine#prepareCompaction} and committed by {@link TableEngine#commitCompaction}; if
 * it is never committed (stale work is skipped), its {@link #writtenFiles()} are orphans for lake's sweep (or for
 * {@link TableEngine#deleteDataFiles} right away).
 */
public final class CompactionWork {
  private final String location;
  private final long readVersion;
  private final List<?> results;
  private final long fragmentsRemoved;
  private final long fragmentsAdded;
  private final List<String> writtenFiles;

  CompactionWork(String location, long readVersion, List<?> results, long fragmentsRemoved, long fragmentsAdded,
      List<String> writtenFiles) {
    this.location = Objects.requireNonNull(location, "location");
    this.readVersion = readVersion;
    this.results = List.copyOf(results);
    this.fragmentsRemoved = fragmentsRemoved;
    this.fragmentsAdded = fragmentsAdded;
    this.writtenFiles = List.copyOf(writtenFiles);
  }

  /** The table location the files were written under. */
  public String location() {
    return location;
  }

  /** The version the compaction was planned and rewritten on. */
  public long readVersion() {
    return readVersion;
  }

  /** How many fragments the commit replaces. */
  public long fragmentsRemoved() {
    return fragmentsRemoved;
  }

  /** How many fragments replace them. */
  public long fragmentsAdded() {
    return fragmentsAdded;
  }

  /** The data files the rewrite wrote, relative to the location ({@code data/...}). */
  public List<String> writtenFiles() {
    return writtenFiles;
  }

  /** Engine-private task results (Lance {@code RewriteResult}s). */
  List<?> results() {
    return results;
  }

  @Override
  public String toString() {
    return "CompactionWork[location=" + location + ", readVersion=" + readVersion + ", fragmentsRemoved="
        + fragmentsRemoved + ", fragmentsAdded=" + fragmentsAdded + "]";
  }
}
