package dev.lake.flight.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.engine.S3Uri;
import java.net.URI;
import java.util.Optional;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The S3 start-up checks against a real (in-process) s3proxy. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3StartupCheckTest {
  private static final String KEY = "check";
  private static final String SECRET = "check-secret";
  private S3Proxy proxy;
  private URI endpoint;

  @BeforeAll
  void start() throws Exception {
    proxy = S3Proxy.builder().blobStore(new TransientNio2BlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, KEY, SECRET).build();
    proxy.start();
    endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    try (S3Client client = client(KEY, SECRET)) {
      client.createBucket(b -> b.bucket("bkt"));
    }
  }

  @AfterAll
  void stop() throws Exception {
    proxy.stop();
  }

  @Test
  void passesOnAStoreThatHonoursConditionalPutsAndLeavesNoProbe() {
    try (S3Client client = client(KEY, SECRET)) {
      new S3StartupCheck(client, S3Uri.parse("s3://bkt/lake/"), endpoint.toString()).run();

      assertThat(client.listObjectsV2(r -> r.bucket("bkt")).contents()).isEmpty();
    }
  }

  @Test
  void aMissingBucketIsNamed() {
    try (S3Client client = client(KEY, SECRET)) {
      assertThatThrownBy(() -> new S3StartupCheck(client, S3Uri.parse("s3://nope/lake"), endpoint.toString()).run())
          .isInstanceOf(StartupCheckException.class)
          .hasMessageStartingWith("s3://nope/lake/: the bucket 'nope' does not exist at " + endpoint)
          .hasMessageContaining("NoSuchBucket").hasMessageContaining("fix data.root");
    }
  }

  @Test
  void rejectedCredentialsAreNamedWithoutTheSecret() {
    try (S3Client client = client(KEY, "wrong-secret-value")) {
      assertThatThrownBy(() -> new S3StartupCheck(client, S3Uri.parse("s3://bkt/lake"), endpoint.toString()).run())
          .isInstanceOf(StartupCheckException.class)
          .hasMessageContaining("rejected the credentials on PutObject")
          .hasMessageContaining("s3.access-key-id and s3.secret-access-key")
          .hasMessageNotContaining("wrong-secret-value");
    }
  }

  private S3Client client(String key, String secret) {
    S3Settings settings = new S3Settings(Optional.of(endpoint), Optional.empty(), Optional.of(key),
        Optional.of(secret), true);
    return AwsClients.s3(settings, Region.US_EAST_1, AwsClients.credentials(settings.accessKeyId(),
        settings.secretAccessKey()));
  }
}
