package dev.lake.metasrv;

import java.util.Objects;

/**
 * Where incarnations live: {@code <data-root>/<name>/<generation>}. A generation is a fresh id, so recreating a
 * name never reuses a path (docs/design.md invariant 4).
 */
public final class TableLocations {
  private final String dataRoot;

  /** @param dataRoot a local absolute path or a URI such as {@code s3://bucket/prefix} (trailing slash optional) */
  public TableLocations(String dataRoot) {
    Objects.requireNonNull(dataRoot, "dataRoot");
    String root = dataRoot;
    while (root.length() > 1 && root.endsWith("/")) {
      root = root.substring(0, root.length() - 1);
    }
    this.dataRoot = root;
  }

  public String locationOf(String table, String generation) {
    return dataRoot + "/" + table + "/" + generation;
  }

  public String dataRoot() {
    return dataRoot;
  }
}
