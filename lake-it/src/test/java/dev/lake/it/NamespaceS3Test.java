package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.it.support.ClusterSettings;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.NamespaceClient;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.registry.dynamodb.Dynoxide;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.namespace.RestNamespace;

/**
 * The namespace on S3 (s3proxy) with the registry in DynamoDB (dynoxide): DescribeTable vends the S3 endpoint and
 * credentials with an expiry, and a Lance reader that outlives the expiry describes the table again for fresh ones.
 */
class NamespaceS3Test {
  @TempDir
  Path dataDir;

  @Test
  void namespaceOnS3VendsExpiringCredentials() throws Exception {
    try (S3ProxyServer s3 = S3ProxyServer.start("lake-ns"); Dynoxide dynamo = Dynoxide.start()) {
      Map<String, String> settings = new HashMap<>(ClusterSettings.of(s3, "lake", dynamo,
          "lake-ns-" + UUID.randomUUID()));
      settings.put("namespace.enabled", "true");
      settings.put("namespace.port", "0");
      settings.put("namespace.credential-lifetime", "3s");
      try (LakeTestServer server = LakeTestServer.start(dataDir, b -> {}, settings);
          FlightTestClient client = server.client();
          BufferAllocator allocator = new RootAllocator()) {
        LanceNamespaceTest.ingest(client, "t", 0, 1000, FlightTestClient.create());
        LanceNamespaceTest.ingest(client, "t", 1000, 500, FlightTestClient.append());
        String token = NamespaceClient.bearer(server.port(), "lake", "lake");
        int port = server.server().namespacePort().orElseThrow();

        long before = System.currentTimeMillis();
        JsonNode described = new NamespaceClient(port).call("POST", "/v1/table/main$t/describe", "{}", token).body();
        long after = System.currentTimeMillis();
        assertThat(described.path("location").asText()).startsWith("s3://lake-ns/lake/t/");
        assertThat(described.path("version").asLong()).isEqualTo(2);
        JsonNode options = described.path("storage_options");
        assertThat(options.path("aws_endpoint").asText()).isEqualTo(s3.endpoint().toString());
        assertThat(options.path("aws_region").asText()).isEqualTo(S3ProxyServer.REGION);
        assertThat(options.path("aws_access_key_id").asText()).isEqualTo(S3ProxyServer.ACCESS_KEY);
        assertThat(options.path("aws_secret_access_key").asText()).isEqualTo(S3ProxyServer.SECRET_KEY);
        assertThat(options.path("allow_http").asText()).isEqualTo("true");
        long expires = Long.parseLong(options.path("expires_at_millis").asText());
        assertThat(expires).isBetween(before + 3000, after + 3000);
        JsonNode resolved = dev.lake.it.support.AdminClient.action(client, "lake.resolve_table", "{\"table\": \"t\"}");
        assertThat(resolved.path("expires_at_millis").asLong()).isGreaterThanOrEqualTo(expires);
        assertThat(resolved.path("storage_options").path("aws_endpoint").asText()).isEqualTo(s3.endpoint().toString());

        // lance-core's client opens the registered version with the vended options; a scan after they expired
        // describes the table again
        RestNamespace ns = new RestNamespace();
        ns.initialize(Map.of("uri", "http://127.0.0.1:" + port, "header.Authorization", token,
            "ops_metrics_enabled", "true"), allocator);
        try (Dataset ds = Dataset.open().allocator(allocator).namespaceClient(ns).tableId(List.of("main", "t"))
            .build()) {
          assertThat(ds.countRows()).isEqualTo(1500);
          long describesAtOpen = ns.retrieveOpsMetrics().getOrDefault("describe_table", 0L);
          long wait = expires + 500 - System.currentTimeMillis();
          if (wait > 0) {
            Thread.sleep(wait); // let the vended credentials expire (wall clock: Lance compares with its own)
          }
          assertThat(scanCount(ds)).isEqualTo(1500);
          System.out.println("ops=" + ns.retrieveOpsMetrics());
          assertThat(ns.retrieveOpsMetrics().getOrDefault("describe_table", 0L)).isGreaterThan(describesAtOpen);
        } finally {
          ns.close();
        }
      }
    }
  }

  private static long scanCount(Dataset ds) throws Exception {
    long rows = 0;
    try (LanceScanner scanner = ds.newScan(new ScanOptions.Builder().build());
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
    }
    return rows;
  }
}
