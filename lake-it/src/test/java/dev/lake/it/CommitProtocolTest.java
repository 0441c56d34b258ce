package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.it.support.FaultyMetaStore;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import dev.lake.metasrv.WriteInterceptor;
import dev.lake.registry.RegistryConflictException;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableRegistration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md invariant 2 through the real server: no ingest is acknowledged before its registry write, and no
 * unacknowledged or foreign Lance commit ever becomes visible.
 */
class CommitProtocolTest {
  private static final Schema SCHEMA = new Schema(List.of(Field.nullable("v", new ArrowType.Int(64, true))));

  @TempDir
  Path dataDir;

  @Test
  void ingestIsAcknowledgedOnlyAfterRegistryCas() throws Exception {
    AtomicReference<FaultyMetaStore> faulty = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dataDir,
            b -> b.wrapMetaStore(s -> { faulty.set(new FaultyMetaStore(s)); return faulty.get(); }));
        FlightTestClient client = server.client()) {
      ingest(client, "t", 0, 10, FlightTestClient.create());
      TableRegistration before = server.server().metaStore().get("t").orElseThrow();

      faulty.get().failNextCommits(1, () -> new RegistryConflictException("injected: CAS lost"));
      Throwable failed = catchThrowable(() -> ingest(client, "t", 100, 5, FlightTestClient.append()));

      assertThat(failed).as("the ingest whose CAS failed is not acknowledged").isNotNull();
      assertThat(Status.code(failed)).isEqualTo("ABORTED");
      assertThat(server.server().metaStore().get("t").orElseThrow()).isEqualTo(before);
      assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(range(0, 10));
    }
  }

  @Test
  void failedIngestRowsNeverAppear() throws Exception {
    AtomicReference<FaultyMetaStore> faulty = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dataDir,
            b -> b.wrapMetaStore(s -> { faulty.set(new FaultyMetaStore(s)); return faulty.get(); }));
        FlightTestClient client = server.client()) {
      ingest(client, "t", 0, 10, FlightTestClient.create());
      // The Lance commit of rows 100..104 succeeds, its registry write does not.
      faulty.get().failNextCommits(1, () -> new RegistryUnavailableException("injected: registry down", null));
      Throwable failed = catchThrowable(() -> ingest(client, "t", 100, 5, FlightTestClient.append()));
      assertThat(Status.code(failed)).isEqualTo("UNAVAILABLE");
      assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(range(0, 10));

      // The next append builds on the registered version: the failed batch never surfaces.
      ingest(client, "t", 200, 3, FlightTestClient.append());
      assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(200, 203)));
    }
  }

  @Test
  void foreignLanceCommitIsNeverRegistered() throws Exception {
    AtomicBoolean armed = new AtomicBoolean(false);
    try (BufferAllocator foreignAllocator = new RootAllocator();
        LanceTableEngine foreign = new LanceTableEngine(foreignAllocator, Map.of())) {
      WriteInterceptor slipIn = new WriteInterceptor() {
        @Override
        public void beforeLanceCommit(String table, String location, long readVersion) {
          if (table.equals("t") && armed.getAndSet(false)) {
            // Another writer commits data straight to Lance between the leader's check and its commit.
            try (VectorSchemaRoot rows = batch(foreignAllocator, 900, 7);
                ArrowReader reader = reader(foreignAllocator, rows)) {
              StagedData staged = foreign.stage(location, reader);
              foreign.commit(location, foreign.latestVersion(location), new TableChange.Append(staged));
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          }
        }
      };
      try (LakeTestServer server = LakeTestServer.start(dataDir, b -> b.writeInterceptor(slipIn));
          FlightTestClient client = server.client()) {
        ingest(client, "t", 0, 10, FlightTestClient.create());
        armed.set(true);
        Throwable outcome = catchThrowable(() -> ingest(client, "t", 100, 5, FlightTestClient.append()));
        assertThat(armed.get()).as("the foreign commit was slipped in").isFalse();
        if (outcome != null) {
          assertThat(Status.code(outcome)).isEqualTo("ABORTED");
          assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(range(0, 10));
        } else {
          // a clean retry: the leader restored the registered content and committed again
          assertThat(values(client, "t")).containsExactlyInAnyOrderElementsOf(concat(range(0, 10), range(100, 105)));
        }
        TableRegistration registered = server.server().metaStore().get("t").orElseThrow();
        assertThat(values(client, "t")).doesNotContainAnyElementsOf(range(900, 907));
        ingest(client, "t", 300, 2, FlightTestClient.append());
        assertThat(values(client, "t")).doesNotContainAnyElementsOf(range(900, 907)).containsAll(range(300, 302));
        assertThat(server.server().metaStore().get("t").orElseThrow().version()).isGreaterThan(registered.version());
      }
    }
  }

  private static void ingest(FlightTestClient client, String table, long first, int count,
      org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions options) {
    try (VectorSchemaRoot root = batch(client.allocator(), first, count)) {
      client.ingest(table, root, options);
    }
  }

  static VectorSchemaRoot batch(BufferAllocator allocator, long first, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    BigIntVector v = (BigIntVector) root.getVector(0);
    for (int i = 0; i < count; i++) {
      v.setSafe(i, first + i);
    }
    root.setRowCount(count);
    return root;
  }

  private static ArrowReader reader(BufferAllocator allocator, VectorSchemaRoot root) throws Exception {
    return dev.lake.it.support.ArrowStreams.of(allocator, root);
  }

  static List<Long> values(FlightTestClient client, String table) throws Exception {
    return client.rows("SELECT v FROM " + table).stream().map(r -> (Long) r.get(0)).toList();
  }

  static List<Long> range(long from, long to) {
    return java.util.stream.LongStream.range(from, to).boxed().toList();
  }

  static List<Long> concat(List<Long> a, List<Long> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
