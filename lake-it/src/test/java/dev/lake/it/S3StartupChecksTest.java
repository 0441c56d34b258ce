package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.flight.storage.StartupCheckException;
import dev.lake.it.support.ClusterSettings;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.S3FaultProxy;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.registry.dynamodb.Dynoxide;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node refuses to start on storage it cannot use, and says exactly what is missing: a store that ignores
 * {@code If-None-Match}, a missing permission, an unreachable endpoint, a missing registry table. Faults s3proxy
 * cannot imitate come from a loopback proxy in front of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3StartupChecksTest {
  private static final String BUCKET = "lake-checks";

  @TempDir
  Path dataDir;

  private S3ProxyServer s3;

  @BeforeAll
  void startS3() throws Exception {
    s3 = S3ProxyServer.start(BUCKET);
  }

  @AfterAll
  void stopS3() throws Exception {
    s3.close();
  }

  @Test
  void startupRejectsStoreWithoutConditionalPut() throws Exception {
    // The proxy removes a signed header, so the store behind it must not check signatures.
    try (S3ProxyServer unsigned = S3ProxyServer.start(BUCKET, AuthenticationType.NONE);
        S3FaultProxy ignoresIfNoneMatch = S3FaultProxy.start(unsigned.port(), S3FaultProxy.Fault.STRIP_IF_NONE_MATCH)) {
      Map<String, String> settings = unsigned.nodeSettings("cluster", ignoresIfNoneMatch.endpoint());

      Throwable refused = catchThrowable(() -> LakeTestServer.start(dataDir, b -> {}, settings).close());

      assertThat(refused).isInstanceOf(StartupCheckException.class)
          .hasMessageContaining("s3://" + BUCKET + "/cluster/")
          .hasMessageContaining("does not honour If-None-Match: *")
          .hasMessageContaining("accepted a second PUT")
          .hasMessageContaining("Lance commits every table version with a conditional PUT")
          .hasMessageContaining(ignoresIfNoneMatch.endpoint().toString());
      assertThat(ignoresIfNoneMatch.faultsInjected()).as("the conditional PUTs went through the proxy").isEqualTo(2);
      assertThat(unsigned.keys("cluster/")).as("the probe objects were removed").isEmpty();

      // The same store reached directly honours the header, and the node starts.
      try (LakeTestServer server = LakeTestServer.start(dataDir.resolve("direct"), b -> {},
          unsigned.nodeSettings("cluster"))) {
        assertThat(server.port()).isPositive();
      }
    }
  }

  @Test
  void missingS3PermissionIsNamed() throws Exception {
    try (S3FaultProxy noDelete = S3FaultProxy.start(s3.port(), S3FaultProxy.Fault.DENY_DELETE)) {
      Map<String, String> settings = s3.nodeSettings("perm", noDelete.endpoint());

      Throwable refused = catchThrowable(() -> LakeTestServer.start(dataDir, b -> {}, settings).close());

      assertThat(refused).isInstanceOf(StartupCheckException.class)
          .hasMessageStartingWith("s3://" + BUCKET + "/perm/: the credentials may not DeleteObject (AccessDenied")
          .hasMessageContaining("Grant s3:DeleteObject on arn:aws:s3:::" + BUCKET + "/perm/*")
          .hasMessageContaining("Remove the probe objects under s3://" + BUCKET + "/perm/.lake-probe/");
      assertThat(noDelete.faultsInjected()).isPositive();
      // Writing, reading, listing and the conditional PUT passed: their probes are what is left behind.
      assertThat(s3.keys("perm/")).isNotEmpty().allMatch(k -> k.startsWith("perm/.lake-probe/"));
    }
  }

  @Test
  void unreachableS3GivesClearError() throws Exception {
    int closedPort = closedPort();
    Map<String, String> settings = s3.nodeSettings("gone", java.net.URI.create("http://127.0.0.1:" + closedPort));

    long started = System.nanoTime();
    Throwable refused = catchThrowable(() -> LakeTestServer.start(dataDir, b -> {}, settings).close());
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(refused).isInstanceOf(StartupCheckException.class)
        .hasMessageStartingWith("s3://" + BUCKET + "/gone/: cannot reach S3 at http://127.0.0.1:" + closedPort)
        .hasMessageContaining("PutObject failed")
        .hasMessageContaining("Check s3.endpoint, s3.region and the network");
    assertThat(took).as("an unreachable store fails the start promptly").isLessThan(Duration.ofSeconds(60));
  }

  @Test
  void missingDynamoTableGivesClearError() throws Exception {
    String table = "lake-missing-" + UUID.randomUUID();
    try (Dynoxide dynamoDb = Dynoxide.start()) {
      Map<String, String> settings = new HashMap<>(s3.nodeSettings("missing-table"));
      settings.putAll(ClusterSettings.dynamoDb(dynamoDb.endpoint(), table, false));

      Throwable refused = catchThrowable(() -> LakeTestServer.start(dataDir, b -> {}, settings).close());

      assertThat(refused).isInstanceOf(StartupCheckException.class)
          .hasMessageStartingWith("the DynamoDB registry table '" + table + "' does not exist (endpoint "
              + dynamoDb.endpoint() + ") and dynamodb.create-table is false")
          .hasMessageContaining("aws dynamodb create-table --table-name " + table)
          .hasMessageContaining("AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE")
          .hasMessageContaining("set dynamodb.create-table: true (LAKE_DYNAMODB_CREATE_TABLE=true)");
      try (var client = dynamoDb.newClient()) {
        assertThat(client.listTables().tableNames()).as("nothing was created").doesNotContain(table);
      }

      // With creation allowed the same configuration starts, on S3 and DynamoDB.
      settings.put("dynamodb.create-table", "true");
      try (LakeTestServer server = LakeTestServer.start(dataDir.resolve("created"), b -> {}, settings);
          FlightTestClient client = server.client()) {
        assertThat(server.server().metaStore().describe()).isEqualTo("dynamodb:" + table);
        assertThat(client.rows("SELECT 1")).hasSize(1);
      }
      assertThat(Files.exists(dataDir.resolve("created").resolve("registry")))
          .as("no RocksDB registry beside a DynamoDB one").isFalse();
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
