package dev.lake.engine;

import java.net.URI;
import java.util.Optional;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** An in-process s3proxy (in-memory blobs, SigV4 auth) on a free loopback port with one bucket, for engine tests. */
final class S3Fixture implements AutoCloseable {
  static final String ACCESS_KEY = "engine-test";
  static final String SECRET_KEY = "engine-test-secret";
  static final String BUCKET = "lake-engine";

  private final S3Proxy proxy;
  private final URI endpoint;
  private final S3Client client;

  private S3Fixture(S3Proxy proxy, URI endpoint, S3Client client) {
    this.proxy = proxy;
    this.endpoint = endpoint;
    this.client = client;
  }

  static S3Fixture start() throws Exception {
    S3Proxy proxy = S3Proxy.builder()
        .blobStore(new TransientNio2BlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start();
    URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    S3Client client = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
        .credentialsProvider(credentials()).forcePathStyle(true).build();
    client.createBucket(b -> b.bucket(BUCKET));
    return new S3Fixture(proxy, endpoint, client);
  }

  static AwsCredentialsProvider credentials() {
    return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
  }

  URI endpoint() {
    return endpoint;
  }

  S3Client client() {
    return client;
  }

  S3StorageOptions storageOptions(AwsCredentialsProvider credentials) {
    return new S3StorageOptions(credentials, "us-east-1", Optional.of(endpoint), true);
  }

  void put(String key, String content) {
    client.putObject(b -> b.bucket(BUCKET).key(key), software.amazon.awssdk.core.sync.RequestBody.fromString(content));
  }

  java.util.List<String> keys(String prefix) {
    return client.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix)).contents().stream()
        .map(software.amazon.awssdk.services.s3.model.S3Object::key).sorted().toList();
  }

  @Override
  public void close() throws Exception {
    client.close();
    proxy.stop();
  }
}
