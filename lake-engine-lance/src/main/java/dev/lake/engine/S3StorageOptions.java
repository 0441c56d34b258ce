package dev.lake.engine;

import java.net.URI;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Lance's storage options for S3, built from the credentials current at each call.
 *
 * <p>Lance 7.0.0 takes static options ({@code aws_access_key_id}, {@code aws_secret_access_key},
 * {@code aws_session_token}, {@code aws_region}, {@code aws_endpoint}, {@code allow_http},
 * {@code aws_virtual_hosted_style_request}) and has no hook to refresh them outside its namespace API. So the
 * engine asks this source at every Lance call, and this source asks the AWS SDK credentials provider, which caches
 * temporary credentials and fetches new ones before they expire (the default chain, STS, instance and container
 * providers all prefetch ahead of expiry). Each operation therefore starts with credentials that are still valid;
 * a Lance handle keeps the ones it was opened with, so temporary credentials must outlive the longest query.
 * {@link #toString()} and logs never carry the keys.
 */
public final class S3StorageOptions implements StorageOptions {
  private final AwsCredentialsProvider credentials;
  private final String region;
  private final Optional<URI> endpoint;
  private final boolean pathStyle;
  private final Map<String, String> fixed;

  /**
   * @param credentials the SDK provider asked for credentials at every call (static or a refreshing one)
   * @param region the bucket's region ({@code us-east-1} for most S3-compatible stores)
   * @param endpoint an S3-compatible endpoint (MinIO, s3proxy, LocalStack); empty for AWS S3
   * @param pathStyle address buckets as {@code endpoint/bucket/key} rather than {@code bucket.endpoint/key}
   */
  public S3StorageOptions(AwsCredentialsProvider credentials, String region, Optional<URI> endpoint,
      boolean pathStyle) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.region = Objects.requireNonNull(region, "region");
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.pathStyle = pathStyle;
    Map<String, String> options = new HashMap<>();
    options.put("aws_region", region);
    endpoint.ifPresent(e -> {
      options.put("aws_endpoint", e.toString());
      if ("http".equals(e.getScheme().toLowerCase(Locale.ROOT))) {
        options.put("allow_http", "true");
      }
    });
    options.put("aws_virtual_hosted_style_request", Boolean.toString(!pathStyle));
    this.fixed = Map.copyOf(options);
  }

  /**
   * The options with the credentials the provider hands out now.
   *
   * @throws StorageException when no credentials can be resolved (the message says where they were looked for)
   */
  @Override
  public Map<String, String> current() {
    AwsCredentials resolved;
    try {
      resolved = credentials.resolveCredentials();
    } catch (SdkException e) {
      throw new StorageException("resolving AWS credentials for S3 failed: " + LanceErrors.detail(e) + ". Configure "
          + "s3.access-key-id and s3.secret-access-key, or a source of the AWS default credential chain (environment, "
          + "profile, web identity, container or instance role)", e);
    }
    Map<String, String> options = new HashMap<>(fixed);
    options.put("aws_access_key_id", resolved.accessKeyId());
    options.put("aws_secret_access_key", resolved.secretAccessKey());
    if (resolved instanceof AwsSessionCredentials session) {
      options.put("aws_session_token", session.sessionToken());
    }
    return Map.copyOf(options);
  }

  public String region() {
    return region;
  }

  public Optional<URI> endpoint() {
    return endpoint;
  }

  public boolean pathStyle() {
    return pathStyle;
  }

  @Override
  public String toString() {
    return "S3StorageOptions[region=" + region + ", endpoint=" + endpoint.map(URI::toString).orElse("AWS")
        + ", pathStyle=" + pathStyle + ", credentials=" + credentials.getClass().getSimpleName() + "]";
  }
}
