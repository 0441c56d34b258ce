package dev.lake.flight.spool;

import dev.lake.engine.S3Uri;
import dev.lake.flight.storage.S3Settings;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * Spooled results on S3 (or an S3-compatible store), reached with the node's {@code s3.*} settings. Presigned GET
 * URLs let clients fetch a result without going through lake; their signature lasts until the result expires
 * (at most 7 days, S3's limit for SigV4 query signatures).
 */
final class S3SpoolStore implements SpoolStore {
  private static final Duration MAX_PRESIGN = Duration.ofDays(7);
  private final S3Client client;
  private final S3Presigner presigner;
  private final AwsCredentialsProvider credentials;
  private final String bucket;
  private final String prefix;
  private final String description;

  private S3SpoolStore(S3Client client, S3Presigner presigner, AwsCredentialsProvider credentials, S3Uri root,
      String description) {
    this.client = client;
    this.presigner = presigner;
    this.credentials = credentials;
    this.bucket = root.bucket();
    this.prefix = root.keyPrefix();
    this.description = description;
  }

  static S3SpoolStore open(String location, S3Settings s3) {
    S3Uri root = S3Uri.parse(location);
    Region region = s3.region().map(Region::of).orElseGet(() -> s3.endpoint().isPresent() ? Region.US_EAST_1
        : new DefaultAwsRegionProviderChain().getRegion());
    AwsCredentialsProvider credentials = s3.accessKeyId().isPresent() && s3.secretAccessKey().isPresent()
        ? StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKeyId().get(),
            s3.secretAccessKey().get()))
        : DefaultCredentialsProvider.builder().build();
    S3ClientBuilder builder = S3Client.builder().region(region).credentialsProvider(credentials)
        .forcePathStyle(s3.pathStyle())
        .overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofSeconds(60)));
    S3Presigner.Builder presign = S3Presigner.builder().region(region).credentialsProvider(credentials)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(s3.pathStyle()).build());
    s3.endpoint().ifPresent(e -> {
      builder.endpointOverride(e).requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
      presign.endpointOverride(e);
    });
    String endpoint = s3.endpoint().map(URI::toString).orElse("AWS S3 (" + region.id() + ")");
    return new S3SpoolStore(builder.build(), presign.build(), credentials, root, root + " at " + endpoint);
  }

  @Override
  public void put(String key, Path file) throws IOException {
    try {
      client.putObject(b -> b.bucket(bucket).key(prefix + key).contentType("application/vnd.apache.arrow.stream"),
          RequestBody.fromFile(file));
    } catch (SdkException e) {
      throw new IOException("writing s3://" + bucket + "/" + prefix + key + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void putBytes(String key, byte[] bytes) throws IOException {
    try {
      client.putObject(b -> b.bucket(bucket).key(prefix + key).contentType("application/json"),
          RequestBody.fromBytes(bytes));
    } catch (SdkException e) {
      throw new IOException("writing s3://" + bucket + "/" + prefix + key + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<byte[]> getBytes(String key) throws IOException {
    try {
      return Optional.of(client.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + key)).asByteArray());
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw new IOException("reading s3://" + bucket + "/" + prefix + key + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public InputStream open(String key) throws IOException {
    try {
      return client.getObject(b -> b.bucket(bucket).key(prefix + key));
    } catch (NoSuchKeyException e) {
      throw new java.nio.file.NoSuchFileException("s3://" + bucket + "/" + prefix + key);
    } catch (SdkException e) {
      throw new IOException("reading s3://" + bucket + "/" + prefix + key + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public List<StoredObject> list(String keyPrefix) throws IOException {
    List<StoredObject> out = new ArrayList<>();
    try {
      for (S3Object o : client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix + keyPrefix)).contents()) {
        out.add(new StoredObject(o.key().substring(prefix.length()), o.size(), o.lastModified()));
      }
    } catch (SdkException e) {
      throw new IOException("listing s3://" + bucket + "/" + prefix + keyPrefix + " failed: " + e.getMessage(), e);
    }
    return out;
  }

  @Override
  public void delete(Collection<String> keys) throws IOException {
    List<ObjectIdentifier> ids = new ArrayList<>();
    for (String key : keys) {
      ids.add(ObjectIdentifier.builder().key(prefix + key).build());
    }
    try {
      for (int i = 0; i < ids.size(); i += 1000) {
        List<ObjectIdentifier> page = ids.subList(i, Math.min(ids.size(), i + 1000));
        client.deleteObjects(b -> b.bucket(bucket).delete(Delete.builder().objects(page).quiet(true).build()));
      }
    } catch (SdkException e) {
      throw new IOException("deleting spooled results under s3://" + bucket + "/" + prefix + " failed: "
          + e.getMessage(), e);
    }
  }

  @Override
  public Optional<URI> presign(String key, Duration validFor) {
    Duration d = validFor.compareTo(MAX_PRESIGN) > 0 ? MAX_PRESIGN : validFor;
    if (d.isNegative() || d.isZero()) {
      return Optional.empty();
    }
    try {
      return Optional.of(presigner.presignGetObject(p -> p.signatureDuration(d)
          .getObjectRequest(g -> g.bucket(bucket).key(prefix + key))).url().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("the presigned URL is not a URI", e);
    }
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    presigner.close();
    client.close();
    if (credentials instanceof SdkAutoCloseable c) {
      c.close();
    }
  }
}
