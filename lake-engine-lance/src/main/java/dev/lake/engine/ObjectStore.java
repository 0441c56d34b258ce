package dev.lake.engine;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * The files under table locations, for lake's own orphan sweep and garbage collection (Lance has no listing API
 * that an in-flight ingest is safe from). A root is a location in the form handed to Lance: an absolute local path,
 * or an object-store URI such as {@code s3://bucket/prefix}. Paths below a root are relative and
 * {@code /}-separated. Implementations are thread-safe.
 */
public interface ObjectStore {

  /** True when this store serves {@code root} (e.g. absolute local paths, or {@code s3://} URIs). */
  boolean serves(String root);

  /**
   * Every file under {@code root/prefix}, recursively; empty when nothing is there. Files that vanish while
   * listing are left out.
   *
   * @param prefix a relative directory ending in {@code /} ({@code data/}), or empty for the whole root
   */
  List<StoredFile> list(String root, String prefix) throws IOException;

  /** Deletes {@code root/path} for each path; paths that do not exist are ignored. */
  void delete(String root, Collection<String> relativePaths) throws IOException;

  /** Deletes everything under {@code root}, and the root itself; does nothing when nothing is there. */
  void deleteAll(String root) throws IOException;
}
