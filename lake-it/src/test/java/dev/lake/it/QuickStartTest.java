package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.ServerProcess;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.rocksdb.RocksDbMetaStore;
import java.nio.file.Path;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's quick start, run as a new user runs it: bin/lake server on an empty directory. */
class QuickStartTest {
  @TempDir
  Path dir;

  @Test
  void quickStartFromFreshDataDirectory() throws Exception {
    Path dataDir = dir.resolve("lake-data");
    TableRegistration before;
    try (ServerProcess server = ServerProcess.start("--data-dir", dataDir.toString(), "--port", "0")) {
      try (FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
        try (VectorSchemaRoot rows = CommitProtocolTest.batch(client.allocator(), 0, 100)) {
          client.ingest("quick", rows, FlightTestClient.create());
        }
        try (VectorSchemaRoot rows = CommitProtocolTest.batch(client.allocator(), 100, 50)) {
          client.ingest("quick", rows, FlightTestClient.append());
        }
        assertThat(client.count("quick")).isEqualTo(150);
      }
      assertThat(server.stop()).as("clean exit on SIGTERM").isZero();
    }
    try (MetaStore registry = RocksDbMetaStore.open(dataDir.resolve("registry"))) {
      before = registry.get("quick").orElseThrow();
      assertThat(before.version()).isEqualTo(2);
    }
    try (ServerProcess server = ServerProcess.start("--data-dir", dataDir.toString(), "--port", "0");
        FlightTestClient client = FlightTestClient.connect(server.port(), "lake", "lake")) {
      assertThat(client.count("quick")).isEqualTo(150);
      assertThat(CommitProtocolTest.values(client, "quick")).containsExactlyInAnyOrderElementsOf(
          CommitProtocolTest.range(0, 150));
      try (VectorSchemaRoot rows = CommitProtocolTest.batch(client.allocator(), 150, 1)) {
        client.ingest("quick", rows, FlightTestClient.append());
      }
      assertThat(client.count("quick")).isEqualTo(151);
    }
    try (MetaStore registry = RocksDbMetaStore.open(dataDir.resolve("registry"))) {
      TableRegistration after = registry.get("quick").orElseThrow();
      assertThat(after.generation()).isEqualTo(before.generation());
      assertThat(after.version()).isEqualTo(3);
      assertThat(registry.history("quick", after.generation())).hasSize(3);
    }
  }
}
