package dev.lake.engine;

import java.util.Objects;

/**
 * An {@code s3://bucket/key} location split into bucket and key. The key has no leading or trailing slash and is
 * empty for the bucket's root; {@link #keyPrefix()} is the prefix every object below the location starts with.
 *
 * @param bucket the bucket name
 * @param key the key of the location, without leading or trailing slashes (may be empty)
 */
public record S3Uri(String bucket, String key) {
  public static final String SCHEME = "s3://";

  public S3Uri {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    if (bucket.isEmpty() || bucket.contains("/")) {
      throw new IllegalArgumentException("'" + bucket + "' is not an S3 bucket name");
    }
    if (key.startsWith("/") || key.endsWith("/")) {
      throw new IllegalArgumentException("an S3 key prefix has no leading or trailing slash, got '" + key + "'");
    }
  }

  /** True when {@code location} is an {@code s3://} URI. */
  public static boolean isS3(String location) {
    return location != null && location.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
  }

  /**
   * Parses {@code s3://bucket}, {@code s3://bucket/} or {@code s3://bucket/a/b/}; repeated slashes in the key
   * are kept as S3 keys are (only the leading and trailing ones are dropped).
   *
   * @throws IllegalArgumentException when it is not an {@code s3://} URI with a bucket
   */
  public static S3Uri parse(String location) {
    if (!isS3(location)) {
      throw new IllegalArgumentException("'" + location + "' is not an s3:// location; write s3://bucket/prefix");
    }
    String rest = location.substring(SCHEME.length());
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String key = slash < 0 ? "" : rest.substring(slash + 1);
    int start = 0;
    int end = key.length();
    while (start < end && key.charAt(start) == '/') start++;
    while (end > start && key.charAt(end - 1) == '/') end--;
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("'" + location + "' names no bucket; write s3://bucket/prefix");
    }
    return new S3Uri(bucket, key.substring(start, end));
  }

  /** The prefix of every object below this location: {@code key + "/"}, or empty for the bucket's root. */
  public String keyPrefix() {
    return key.isEmpty() ? "" : key + "/";
  }

  /** The location below this one at relative path {@code child} ({@code a/b}). */
  public S3Uri resolve(String child) {
    return parse(SCHEME + bucket + "/" + keyPrefix() + child);
  }

  @Override
  public String toString() {
    return SCHEME + bucket + "/" + keyPrefix();
  }
}
