package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.it.support.FaultyMetaStore;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.Status;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableRegistration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.arrow.flight.Action;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every error path a client can reach — failed staging, Lance errors while reading, registry errors, lake.status —
 * answers without the server's data directory, table locations, bucket prefix or Java class names.
 */
class ErrorPathsTest {
  private static final Pattern CLASS_NAMES = Pattern.compile(
      "\\b(?:java|javax|jdk|sun|org|com|io|dev)\\.[a-z_]\\w*\\.|Exception\\b|\\.java:\\d");

  @TempDir
  Path dataDir;

  private void noInternals(String what, String message, List<String> wrong) throws Exception {
    for (String secret : List.of(dataDir.toString(), dataDir.toRealPath().toString(), "/tables/", "file:")) {
      if (message.contains(secret)) {
        wrong.add(what + " exposes '" + secret + "': " + message);
      }
    }
    if (CLASS_NAMES.matcher(message).find()) {
      wrong.add(what + " names a Java class: " + message);
    }
  }

  private static VectorSchemaRoot longs(FlightTestClient client, int n) {
    Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true))));
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator());
    for (int i = 0; i < n; i++) {
      ((BigIntVector) root.getVector(0)).setSafe(i, i);
    }
    root.setRowCount(n);
    return root;
  }

  @Test
  @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void errorMessagesNeverExposeServerPaths() throws Exception {
    AtomicReference<FaultyMetaStore> faulty = new AtomicReference<>();
    List<String> wrong = new ArrayList<>();
    int failures = 0;
    try (LakeTestServer server = LakeTestServer.start(dataDir,
            b -> b.wrapMetaStore(s -> { faulty.set(new FaultyMetaStore(s)); return faulty.get(); }));
        FlightTestClient client = server.client()) {
      try (VectorSchemaRoot root = longs(client, 10)) {
        client.ingest("t", root, FlightTestClient.create());
      }
      TableRegistration t = server.server().metaStore().get("t").orElseThrow();

      // failed staging: types Lance cannot store
      List<ArrowType> exotic = List.of(new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO),
          new ArrowType.Interval(IntervalUnit.YEAR_MONTH), new ArrowType.Duration(
              org.apache.arrow.vector.types.TimeUnit.MILLISECOND),
          new ArrowType.Union(org.apache.arrow.vector.types.UnionMode.Sparse, new int[0]));
      for (ArrowType type : exotic) {
        Schema schema = new Schema(List.of(Field.nullable("x", type)));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
          root.allocateNew();
          root.setRowCount(0);
          client.ingest("exotic", root, FlightTestClient.mode(
              org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions
                  .TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
              org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions
                  .TableExistsOption.TABLE_EXISTS_OPTION_REPLACE));
        } catch (RuntimeException e) {
          failures++;
          noInternals("staging " + type, String.valueOf(e.getMessage()), wrong);
          assertThat(Status.code(e)).as(type + ": " + e.getMessage()).isNotIn("INTERNAL", "UNKNOWN");
        }
      }

      // registry errors: the registry write of an append fails with a message that names the registry's files
      faulty.get().failNextCommits(1, () -> new RegistryUnavailableException("RocksDB at " + dataDir
          + "/registry failed: IO error: " + dataDir + "/registry/000012.log: No space left on device", null));
      try (VectorSchemaRoot root = longs(client, 3)) {
        client.ingest("t", root, FlightTestClient.append());
        wrong.add("the append with a failing registry write was acknowledged");
      } catch (RuntimeException e) {
        failures++;
        assertThat(Status.code(e)).isEqualTo("UNAVAILABLE");
        noInternals("a registry failure", String.valueOf(e.getMessage()), wrong);
      }

      // Lance errors while reading: the registered version's files are gone underneath
      Path location = Path.of(java.net.URI.create(t.location().startsWith("/") ? "file://" + t.location()
          : t.location()));
      try (Stream<Path> files = Files.walk(location)) {
        files.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(location)).forEach(p -> p.toFile().delete());
      }
      for (String sql : List.of("SELECT * FROM t", "SELECT count(*) FROM t", "SELECT id + 1 FROM t",
          "SELECT * FROM \"t@v1\"")) {
        try {
          client.rows(sql);
          wrong.add(sql + " answered although its files are gone");
        } catch (Exception e) {
          failures++;
          noInternals(sql + " over deleted files", String.valueOf(e.getMessage()), wrong);
        }
      }

      // lake.status: a reader sees no registry path; here the admin does (admins may)
      String status = new String(client.flight().doAction(new Action("lake.status", "{}".getBytes(
          StandardCharsets.UTF_8)), client.auth()).next().getBody(), StandardCharsets.UTF_8);
      assertThat(status).contains(dataDir.toString());
    }
    assertThat(failures).as("error paths exercised").isGreaterThanOrEqualTo(5);
    assertThat(wrong).isEmpty();
  }
}
