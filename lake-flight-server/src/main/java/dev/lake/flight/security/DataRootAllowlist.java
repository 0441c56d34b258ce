package dev.lake.flight.security;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The only place lake's engine may read or write: the configured data root ({@code data.root}, a local directory
 * or {@code s3://bucket/prefix}) and what lies below it. A location is allowed when it is the root itself or the
 * root followed by plain path segments — no {@code .} or {@code ..}, no empty segment, no backslash, no other
 * scheme, bucket or prefix. Table locations are built by lake as {@code <root>/<name>/<generation>} from a table
 * name (an SQL identifier) and a generated id, so nothing a client sends ever forms one; this check makes that a
 * rule every engine operation obeys, whatever a registry entry or a signed ticket says.
 */
public final class DataRootAllowlist {
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.=-]*");
  private final String root;

  public DataRootAllowlist(String dataRoot) {
    Objects.requireNonNull(dataRoot, "dataRoot");
    this.root = strip(dataRoot);
    if (root.isEmpty()) {
      throw new IllegalArgumentException("the data root is empty");
    }
  }

  public String root() {
    return root;
  }

  public boolean allows(String location) {
    if (location == null) {
      return false;
    }
    String l = strip(location);
    if (l.equals(root)) {
      return true;
    }
    if (!l.startsWith(root + "/")) {
      return false;
    }
    String rest = l.substring(root.length() + 1);
    for (String segment : rest.split("/", -1)) {
      if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
        return false;
      }
    }
    return true;
  }

  /** Returns {@code location} when {@link #allows} it, else throws {@link LocationNotAllowedException}. */
  public String check(String location) {
    if (!allows(location)) {
      throw new LocationNotAllowedException("the location '" + shorten(location) + "' is outside the data root '"
          + root + "': lake reads and writes only under its configured data.root; nothing was done");
    }
    return location;
  }

  private static String strip(String s) {
    String t = s.strip();
    while (t.length() > 1 && t.endsWith("/")) {
      t = t.substring(0, t.length() - 1);
    }
    return t;
  }

  private static String shorten(String s) {
    if (s == null) {
      return "null";
    }
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }
}
