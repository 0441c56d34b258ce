package dev.lake.flight.storage;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * How a node reaches S3 when {@code data.root} is an {@code s3://} URI (keys {@code s3.*} in docs/config.md).
 * {@link #toString()} never shows the secret key.
 *
 * @param endpoint an S3-compatible endpoint (MinIO, s3proxy, LocalStack); empty for AWS S3
 * @param region the bucket's region; empty: {@code us-east-1} with an endpoint, else the AWS default region chain
 * @param accessKeyId a static access key id; empty: the AWS default credentials provider chain
 * @param secretAccessKey its secret (given together with the key id)
 * @param pathStyle address buckets as {@code endpoint/bucket} rather than {@code bucket.endpoint}
 */
public record S3Settings(Optional<URI> endpoint, Optional<String> region, Optional<String> accessKeyId,
    Optional<String> secretAccessKey, boolean pathStyle) {

  public S3Settings {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    endpoint.ifPresent(e -> SettingValues.checkHttpEndpoint("s3.endpoint", e));
    SettingValues.checkKeyPair("s3", accessKeyId, secretAccessKey);
  }

  /** AWS S3 with the default region and credential chains. */
  public static S3Settings aws() {
    return new S3Settings(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
  }

  public boolean hasStaticKeys() {
    return accessKeyId.isPresent();
  }

  @Override
  public String toString() {
    return "S3Settings[endpoint=" + endpoint.map(URI::toString).orElse("AWS") + ", region=" + region.orElse("(chain)")
        + ", credentials=" + (hasStaticKeys() ? "static" : "default chain") + ", pathStyle=" + pathStyle + "]";
  }
}
