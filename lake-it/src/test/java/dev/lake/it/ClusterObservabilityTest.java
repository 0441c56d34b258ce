package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Poll;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.SessionFlightClient;
import dev.lake.registry.dynamodb.Dynoxide;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 on a cluster (two nodes over dynoxide and s3proxy): readiness and the leader meters of a leader and a
 * follower, and a session set through the follower that both nodes read.
 */
class ClusterObservabilityTest {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path dataDir;

  @Test
  void followerIsReadyWhileItKnowsTheLeaderAndServesTheSession() throws Exception {
    try (S3ProxyServer s3 = S3ProxyServer.start("lake-observe");
        Dynoxide dynamoDb = Dynoxide.start();
        LakeTestServer a = node(s3, dynamoDb, "node-a");
        LakeTestServer b = node(s3, dynamoDb, "node-b");
        FlightTestClient writer = a.client();
        BufferAllocator allocator = new RootAllocator()) {
      assertThat(a.server().isLeader()).isTrue();
      assertThat(b.server().isLeader()).isFalse();
      int aPort = a.server().metricsPort().orElseThrow();
      int bPort = b.server().metricsPort().orElseThrow();
      HttpResponse<String> leaderReady = get(aPort, "/ready");
      assertThat(leaderReady.statusCode()).isEqualTo(200);
      assertThat(leaderReady.body()).contains("\"leader\":\"this node\"");
      Poll.until(Duration.ofSeconds(10), "the follower to know the leader",
          () -> get(bPort, "/ready").body().contains("known: node-a"));
      assertThat(get(bPort, "/ready").statusCode()).isEqualTo(200);
      String leaderMetrics = get(aPort, "/metrics").body();
      String followerMetrics = get(bPort, "/metrics").body();
      assertThat(leaderMetrics).containsPattern("(?m)^lake_leader\\{node=\"node-a\"} 1\\.0$");
      assertThat(followerMetrics).containsPattern("(?m)^lake_leader\\{node=\"node-b\"} 0\\.0$");
      assertThat(followerMetrics).containsPattern("(?m)^lake_leader_term\\{node=\"node-b\"} [1-9]");

      LongTable.ingest(writer, "sales", 0, 10, FlightTestClient.create());
      ClientCookieMiddleware.Factory cookies = new ClientCookieMiddleware.Factory();
      try (SessionFlightClient onFollower = SessionFlightClient.connect(allocator, b.port(), cookies);
          SessionFlightClient onLeader = SessionFlightClient.connect(allocator, a.port(), cookies)) {
        assertThat(onFollower.sql().setSessionOptions(new SetSessionOptionsRequest(
            SessionFlightClient.options("schema", "main")), onFollower.auth()).hasErrors()).isFalse();
        assertThat(onFollower.options()).containsOnly(Map.entry("schema", "main"));
        assertThat(onLeader.options()).containsOnly(Map.entry("schema", "main"));
        assertThat(onFollower.count("SELECT COUNT(*) FROM sales")).isEqualTo(10);
      }
    }
  }

  private LakeTestServer node(S3ProxyServer s3, Dynoxide dynamoDb, String nodeId) throws Exception {
    Map<String, String> settings = new HashMap<>(ClusterNodes.node(s3, "observe", dynamoDb, "lake-observe", nodeId,
        ClusterNodes.SHORT_LEASE));
    settings.put("metrics.enabled", "true");
    settings.put("metrics.port", "0");
    return LakeTestServer.start(dataDir.resolve(nodeId), b -> {}, settings);
  }

  private HttpResponse<String> get(int port, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
