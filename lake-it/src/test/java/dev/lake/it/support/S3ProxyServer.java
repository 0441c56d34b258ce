package dev.lake.it.support;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3 stand-in for tests: s3proxy in this JVM over an in-memory blob store, on 127.0.0.1 and a free port, with
 * one bucket created. It honours {@code If-None-Match: *} (Lance's commits need it). Stopped by {@link #close()}.
 */
public final class S3ProxyServer implements AutoCloseable {
  public static final String ACCESS_KEY = "lake-test";
  public static final String SECRET_KEY = "lake-test-secret";
  public static final String REGION = "us-east-1";

  private final S3Proxy proxy;
  private final URI endpoint;
  private final String bucket;
  private final S3Client client;

  private S3ProxyServer(S3Proxy proxy, URI endpoint, String bucket, S3Client client) {
    this.proxy = proxy;
    this.endpoint = endpoint;
    this.bucket = bucket;
    this.client = client;
  }

  /** Starts s3proxy with SigV2/V4 authentication (keys {@link #ACCESS_KEY} / {@link #SECRET_KEY}) and a bucket. */
  public static S3ProxyServer start(String bucket) throws Exception {
    return start(bucket, AuthenticationType.AWS_V2_OR_V4);
  }

  /**
   * Starts s3proxy with the given authentication. {@link AuthenticationType#NONE} accepts any signature: for a
   * test proxy in front of it that rewrites signed headers.
   */
  public static S3ProxyServer start(String bucket, AuthenticationType auth) throws Exception {
    S3Proxy proxy = S3Proxy.builder()
        .blobStore(new TransientNio2BlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(auth, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start();
    URI endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    S3Client client = S3Client.builder().endpointOverride(endpoint).region(Region.of(REGION))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .forcePathStyle(true).build();
    try {
      client.createBucket(b -> b.bucket(bucket));
    } catch (RuntimeException e) {
      client.close();
      proxy.stop();
      throw e;
    }
    return new S3ProxyServer(proxy, endpoint, bucket, client);
  }

  public URI endpoint() {
    return endpoint;
  }

  public int port() {
    return proxy.getPort();
  }

  public String bucket() {
    return bucket;
  }

  /** An SDK client for this store (test assertions and set-up). */
  public S3Client client() {
    return client;
  }

  /** Every key under {@code prefix} in the bucket, sorted. */
  public List<String> keys(String prefix) {
    return client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
        .map(S3Object::key).sorted().toList();
  }

  public void put(String key, String content) {
    client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(content));
  }

  /**
   * The configuration keys of a node whose data root is {@code s3://<bucket>/<prefix>/} on this store, reached at
   * {@code endpoint} (this store's own, or a test proxy in front of it).
   */
  public Map<String, String> nodeSettings(String prefix, URI endpoint) {
    return Map.of(
        "data.root", "s3://" + bucket + "/" + prefix + "/",
        "s3.endpoint", endpoint.toString(),
        "s3.region", REGION,
        "s3.access-key-id", ACCESS_KEY,
        "s3.secret-access-key", SECRET_KEY);
  }

  public Map<String, String> nodeSettings(String prefix) {
    return nodeSettings(prefix, endpoint);
  }

  @Override
  public void close() throws Exception {
    client.close();
    proxy.stop();
  }
}
