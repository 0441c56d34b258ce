package dev.lake.it;

import dev.lake.it.support.ClusterSettings;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.MutableClock;
import dev.lake.it.support.S3EndToEndScenario;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.containers.localstack.LocalStackContainer.Service;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 end-to-end scenario against LocalStack (S3 and DynamoDB in one container): a second, independent
 * implementation of both services. Skipped where Docker is not available; the container is only constructed once
 * Docker was detected.
 */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackEndToEndTest {
  /** Pinned: a LocalStack whose S3 honours If-None-Match on PutObject. */
  private static final DockerImageName IMAGE = DockerImageName.parse("localstack/localstack:4.4");
  private static final String BUCKET = "lake-localstack";

  @TempDir
  Path dataDir;

  @Test
  void localStackEndToEnd() throws Exception {
    try (LocalStackContainer localStack = new LocalStackContainer(IMAGE).withServices(Service.S3, Service.DYNAMODB)) {
      localStack.start();
      StaticCredentialsProvider credentials = StaticCredentialsProvider.create(
          AwsBasicCredentials.create(localStack.getAccessKey(), localStack.getSecretKey()));
      try (S3Client s3 = S3Client.builder().endpointOverride(localStack.getEndpointOverride(Service.S3))
          .region(Region.of(localStack.getRegion())).credentialsProvider(credentials).forcePathStyle(true).build()) {
        s3.createBucket(b -> b.bucket(BUCKET));
        Map<String, String> settings = new HashMap<>(ClusterSettings.dynamoDb(
            localStack.getEndpointOverride(Service.DYNAMODB), "lake-registry", true));
        settings.put("dynamodb.region", localStack.getRegion());
        settings.put("dynamodb.access-key-id", localStack.getAccessKey());
        settings.put("dynamodb.secret-access-key", localStack.getSecretKey());
        settings.put("data.root", "s3://" + BUCKET + "/lake/");
        settings.put("s3.endpoint", localStack.getEndpointOverride(Service.S3).toString());
        settings.put("s3.region", localStack.getRegion());
        settings.put("s3.access-key-id", localStack.getAccessKey());
        settings.put("s3.secret-access-key", localStack.getSecretKey());
        settings.put("cluster.secret", ClusterSettings.SECRET);
        settings.put("maintenance.interval", "1h");
        MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.clock(clock), settings)) {
          new S3EndToEndScenario(server, clock, s3, "events").run();
        }
      }
    }
  }
}
