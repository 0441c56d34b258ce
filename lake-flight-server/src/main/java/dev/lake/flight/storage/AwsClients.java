package dev.lake.flight.storage;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds the node's AWS SDK clients, credentials providers and regions from its settings. */
final class AwsClients {
  /** One HTTP attempt may take this long (a page of keys, a batch delete, a registry call). */
  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(30);

  private AwsClients() {}

  /**
   * Static keys when configured, else the AWS default chain (environment, system properties, web identity,
   * profile, container and instance credentials), which caches temporary credentials and refreshes them before
   * they expire.
   */
  static AwsCredentialsProvider credentials(Optional<String> accessKeyId, Optional<String> secretAccessKey) {
    if (accessKeyId.isPresent() && secretAccessKey.isPresent()) {
      return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId.get(), secretAccessKey.get()));
    }
    return DefaultCredentialsProvider.builder().build();
  }

  /**
   * The configured region; else {@code us-east-1} for a custom endpoint (S3-compatible stores and DynamoDB
   * stand-ins do not care); else the AWS default region chain.
   *
   * @throws StartupCheckException when no region is configured and the chain finds none
   */
  static Region region(String key, Optional<String> configured, Optional<URI> endpoint) {
    if (configured.isPresent()) {
      return Region.of(configured.get());
    }
    if (endpoint.isPresent()) {
      return Region.US_EAST_1;
    }
    try {
      return new DefaultAwsRegionProviderChain().getRegion();
    } catch (SdkClientException e) {
      throw new StartupCheckException(key + " is not set and the AWS default region chain (AWS_REGION, the profile, "
          + "instance metadata) found none: set " + key + " (e.g. eu-west-1) in the configuration or LAKE_"
          + key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_'), e);
    }
  }

  static S3Client s3(S3Settings settings, Region region, AwsCredentialsProvider credentials) {
    S3ClientBuilder builder = S3Client.builder()
        .region(region)
        .credentialsProvider(credentials)
        .forcePathStyle(settings.pathStyle())
        .overrideConfiguration(o -> o.apiCallAttemptTimeout(ATTEMPT_TIMEOUT).retryStrategy(RetryMode.STANDARD));
    settings.endpoint().ifPresent(e -> builder.endpointOverride(e)
        // S3-compatible stores often reject the SDK's newer default checksum headers; send them only when the
        // operation requires one (DeleteObjects does).
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
    return builder.build();
  }

  /** A DynamoDB client with few SDK retries: the registry retries and classifies failures itself. */
  static DynamoDbClient dynamoDb(DynamoDbSettings settings, Region region, AwsCredentialsProvider credentials) {
    var builder = DynamoDbClient.builder()
        .region(region)
        .credentialsProvider(credentials)
        .overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofSeconds(10)).retryStrategy(RetryMode.STANDARD));
    settings.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }
}
