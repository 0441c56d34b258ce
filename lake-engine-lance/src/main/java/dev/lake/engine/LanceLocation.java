package dev.lake.engine;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A table location as given ({@code /abs/path/name/gen/}, {@code file:///abs/path/name/gen/}, {@code s3://bucket/...})
 * and the form handed to Lance: local locations become a normalized absolute path, object-store URIs stay URIs;
 * trailing slashes are dropped so both spellings name one dataset.
 *
 * @param location the location as the caller spelled it (used in messages)
 * @param uri the location as Lance is given it
 */
record LanceLocation(String location, String uri) {

  LanceLocation {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(uri, "uri");
  }

  static LanceLocation of(String location) {
    Objects.requireNonNull(location, "location");
    String trimmed = location.strip();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("a table location must not be empty");
    }
    if (trimmed.startsWith("/")) {
      return new LanceLocation(location, Path.of(trimmed).normalize().toString());
    }
    URI parsed;
    try {
      parsed = new URI(trimmed);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("table location '" + location + "' is neither an absolute path nor a URI: "
          + e.getMessage() + "; give an absolute path or a URI such as s3://bucket/prefix", e);
    }
    if (parsed.getScheme() == null) {
      throw new IllegalArgumentException("table location '" + location + "' is a relative path; give an absolute "
          + "path or a URI such as s3://bucket/prefix");
    }
    if ("file".equalsIgnoreCase(parsed.getScheme())) {
      return new LanceLocation(location, Path.of(parsed).normalize().toString());
    }
    return new LanceLocation(location, stripTrailingSlashes(trimmed));
  }

  private static String stripTrailingSlashes(String uri) {
    int end = uri.length();
    int schemeEnd = uri.indexOf("://") + 3;
    while (end > schemeEnd && uri.charAt(end - 1) == '/') {
      end--;
    }
    return uri.substring(0, end);
  }

  @Override
  public String toString() {
    return uri;
  }
}
