package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.engine.LanceTableEngine;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.NamespaceClient;
import dev.lake.registry.TableRegistration;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.namespace.RestNamespace;
import org.lance.namespace.model.DescribeTableRequest;

/**
 * lake as a Lance REST Namespace, read by lance-core 7.0.0's own REST namespace client in this JVM
 * (docs/api.md, "Lance REST Namespace"): every answer names a registered version, never the newest commit on storage.
 */
class LanceNamespaceTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("v", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

  @TempDir
  Path dataDir;

  static LakeTestServer start(Path dataDir) throws Exception {
    return LakeTestServer.start(dataDir, b -> {}, Map.of("namespace.enabled", "true", "namespace.port", "0"));
  }

  static int namespacePort(LakeTestServer server) {
    return server.server().namespacePort().orElseThrow();
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

  static void ingest(FlightTestClient client, String table, long first, int count,
      org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions options) {
    try (VectorSchemaRoot root = batch(client.allocator(), first, count)) {
      client.ingest(table, root, options);
    }
  }

  /** Commits rows straight to the table's Lance directory, past the registry: a newer, unregistered version. */
  static long foreignCommit(String location, long first, int count) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        LanceTableEngine foreign = new LanceTableEngine(allocator, Map.of());
        VectorSchemaRoot rows = batch(allocator, first, count);
        ArrowReader reader = dev.lake.it.support.ArrowStreams.of(allocator, rows)) {
      StagedData staged = foreign.stage(location, reader);
      return foreign.commit(location, foreign.latestVersion(location), new TableChange.Append(staged));
    }
  }

  static RestNamespace namespace(int port, String authorization, BufferAllocator allocator) {
    RestNamespace ns = new RestNamespace();
    Map<String, String> props = new HashMap<>();
    props.put("uri", "http://127.0.0.1:" + port);
    props.put("header.Authorization", authorization);
    ns.initialize(props, allocator);
    return ns;
  }

  @Test
  void namespaceOpensRegisteredVersionNotLatest() throws Exception {
    try (LakeTestServer server = start(dataDir); FlightTestClient client = server.client();
        BufferAllocator allocator = new RootAllocator()) {
      ingest(client, "t", 0, 10, FlightTestClient.create());
      ingest(client, "t", 10, 5, FlightTestClient.append());
      TableRegistration registered = server.server().metaStore().get("t").orElseThrow();
      assertThat(registered.version()).isEqualTo(2);
      long unregistered = foreignCommit(registered.location(), 900, 7);
      assertThat(unregistered).isEqualTo(3);

      String token = NamespaceClient.bearer(server.port(), "lake", "lake");
      RestNamespace ns = namespace(namespacePort(server), token, allocator);
      try (Dataset ds = Dataset.open().allocator(allocator).namespaceClient(ns).tableId(List.of("main", "t"))
          .build()) {
        assertThat(ds.version()).isEqualTo(2);
        assertThat(ds.countRows()).isEqualTo(15);
      }
      try (Dataset ds = Dataset.open().allocator(allocator).namespaceClient(ns).tableId(List.of("main", "t"))
          .readOptions(new ReadOptions.Builder().setVersion(1L).build()).build()) {
        assertThat(ds.version()).isEqualTo(1);
        assertThat(ds.countRows()).isEqualTo(10);
      }
      DescribeTableRequest describe = new DescribeTableRequest();
      describe.setId(List.of("main", "t"));
      var answer = ns.describeTable(describe);
      assertThat(answer.getVersion()).isEqualTo(2);
      assertThat(answer.getManagedVersioning()).isTrue();

      DescribeTableRequest atUnregistered = new DescribeTableRequest();
      atUnregistered.setId(List.of("main", "t"));
      atUnregistered.setVersion(3L);
      Throwable versionMissing = catchThrowable(() -> ns.describeTable(atUnregistered));
      assertThat(versionMissing).isInstanceOf(org.lance.namespace.errors.TableVersionNotFoundException.class)
          .hasMessageContaining("version 3 of table 't' is not a registered");
      Throwable openMissing = catchThrowable(() -> Dataset.open().allocator(allocator).namespaceClient(ns)
          .tableId(List.of("main", "t")).readOptions(new ReadOptions.Builder().setVersion(3L).build()).build()
          .close());
      assertThat(openMissing).isInstanceOf(org.lance.namespace.errors.TableVersionNotFoundException.class);

      DescribeTableRequest unknown = new DescribeTableRequest();
      unknown.setId(List.of("main", "nope"));
      Throwable notFound = catchThrowable(() -> ns.describeTable(unknown));
      assertThat(notFound).isInstanceOf(org.lance.namespace.errors.TableNotFoundException.class)
          .hasMessageContaining("'nope' does not exist");

      RestNamespace wrong = namespace(namespacePort(server), "Bearer not-a-token", allocator);
      Throwable unauthenticated = catchThrowable(() -> wrong.describeTable(describe));
      assertThat(unauthenticated).isInstanceOf(org.lance.namespace.errors.UnauthenticatedException.class);
      Throwable noOpen = catchThrowable(() -> Dataset.open().allocator(allocator).namespaceClient(wrong)
          .tableId(List.of("main", "t")).build().close());
      assertThat(noOpen).isInstanceOf(org.lance.namespace.errors.UnauthenticatedException.class);
      ns.close();
      wrong.close();
    }
  }
}
