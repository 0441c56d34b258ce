package dev.lake.it;

import static dev.lake.it.support.LongTable.range;
import static dev.lake.it.support.LongTable.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import dev.lake.flight.LakeServer;
import dev.lake.it.support.AdminClient;
import dev.lake.it.support.ClusterNodes;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.ForwardingTableEngine;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.S3ProxyServer;
import dev.lake.it.support.Status;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.dynamodb.Dynoxide;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-your-writes by structure (docs/architecture.md, "Read-your-writes"): the node's catalog is a registration
 * listener of its write coordinator, its maintenance and (on a follower) its forwarding client, wired once in
 * {@link LakeServer}. Catalogs here believe what they cached for an hour, so only that wiring can make a write
 * visible: every write path makes the node's very next query open exactly the version the registry now holds.
 * And no request handler of the Flight layer tells the catalog anything (a bytecode check).
 */
class ReadYourWritesStructureTest {
  private static final Map<String, String> CACHE_FOR_AN_HOUR =
      Map.of("catalog.ttl", "1h", "catalog.negative-ttl", "1h");

  @TempDir
  Path dataDir;

  @Test
  void writePathsKeepReadYourWritesStructurally() throws Exception {
    noFlightHandlerTellsTheCatalog();
    singleNodeWritePaths();
    forwardedWritePaths();
  }

  /** Ingest create/append/replace, a compaction, a drop and a new incarnation on one node (RocksDB, local disk). */
  private void singleNodeWritePaths() throws Exception {
    OpenedVersions opened = new OpenedVersions();
    try (LakeTestServer server = LakeTestServer.start(dataDir.resolve("single"), b -> b.wrapEngine(opened::wrap),
        CACHE_FOR_AN_HOUR);
        FlightTestClient client = server.client()) {
      exercise(server.server().metaStore(), client, opened, client);
    }
  }

  /**
   * The same paths through the follower of a two-node cluster (DynamoDB on dynoxide, S3 on s3proxy): the leader
   * writes, and the follower's very next query sees the version the leader registered.
   */
  private void forwardedWritePaths() throws Exception {
    try (S3ProxyServer s3 = S3ProxyServer.start("lake-ryw-structure");
        Dynoxide dynamoDb = Dynoxide.start()) {
      String registry = "lake-ryw-" + UUID.randomUUID();
      OpenedVersions opened = new OpenedVersions();
      try (LakeTestServer leader = node(s3, dynamoDb, registry, "node-a", b -> { });
          LakeTestServer follower = node(s3, dynamoDb, registry, "node-b", b -> b.wrapEngine(opened::wrap));
          FlightTestClient viaLeader = leader.client();
          FlightTestClient viaFollower = follower.client()) {
        assertThat(leader.server().isLeader()).isTrue();
        assertThat(follower.server().isLeader()).isFalse();
        exercise(leader.server().metaStore(), viaFollower, opened, viaFollower);
        assertThat(values(viaLeader, "t")).containsExactlyInAnyOrderElementsOf(range(300, 303));
      }
    }
  }

  /** Every write path through {@code writer}; after each, {@code reader}'s next query reads the new version. */
  private static void exercise(MetaStore registry, FlightTestClient writer, OpenedVersions opened,
      FlightTestClient reader) throws Exception {
    // The node learns there is no table 't' and may believe it for an hour.
    assertThat(Status.code(catchThrowable(() -> reader.count("t")))).isEqualTo("NOT_FOUND");

    LongTable.ingest(writer, "t", 0, 10, FlightTestClient.create());
    assertNextQuerySees(registry, opened, reader, range(0, 10), "create");
    LongTable.ingest(writer, "t", 10, 5, FlightTestClient.append());
    assertNextQuerySees(registry, opened, reader, range(0, 15), "append");
    LongTable.ingest(writer, "t", 100, 4, LongTable.replace());
    assertNextQuerySees(registry, opened, reader, range(100, 104), "replace");
    for (int i = 0; i < 3; i++) { // small fragments compaction can merge
      LongTable.ingest(writer, "t", 104 + i * 2L, 2, FlightTestClient.append());
    }
    assertNextQuerySees(registry, opened, reader, range(100, 110), "appends before the compaction");

    long before = registry.get("t").orElseThrow().version();
    JsonNode maintained = AdminClient.maintain(writer, "t");
    assertThat(maintained.get("compacted_to_version").isNull()).as("compaction committed: %s", maintained)
        .isFalse();
    assertThat(registry.get("t").orElseThrow().version()).isGreaterThan(before)
        .isEqualTo(maintained.get("compacted_to_version").asLong());
    assertNextQuerySees(registry, opened, reader, range(100, 110), "compaction");

    AdminClient.drop(writer, "t");
    assertThat(Status.code(catchThrowable(() -> reader.count("t")))).as("after the drop").isEqualTo("NOT_FOUND");
    LongTable.ingest(writer, "t", 300, 3, FlightTestClient.create());
    assertNextQuerySees(registry, opened, reader, range(300, 303), "a new incarnation");
  }

  private static void assertNextQuerySees(MetaStore registry, OpenedVersions opened, FlightTestClient reader,
      List<Long> rows, String after) throws Exception {
    TableRegistration registered = registry.get("t").orElseThrow();
    opened.clear();
    assertThat(values(reader, "t")).as("rows after the %s", after).containsExactlyInAnyOrderElementsOf(rows);
    assertThat(opened.of(registered.location())).as("versions the query after the %s opened", after)
        .containsExactly(registered.version());
    JsonNode resolved = AdminClient.action(reader, "lake.resolve_table", "{\"table\":\"t\"}");
    assertThat(resolved.get("version").asLong()).as("the catalog's version after the %s", after)
        .isEqualTo(registered.version());
    assertThat(resolved.get("generation").asText()).isEqualTo(registered.generation());
  }

  private LakeTestServer node(S3ProxyServer s3, Dynoxide dynamoDb, String registry, String nodeId,
      Consumer<LakeServer.Builder> customize) throws Exception {
    // A long lease: this test is about read-your-writes, not failover (a loaded machine must not move the lease).
    Map<String, String> settings = new HashMap<>(ClusterNodes.node(s3, "ryw", dynamoDb, registry, nodeId, Map.of(
        "lease.duration", "20s", "lease.safety-margin", "5s", "lease.campaign-timeout", "3s",
        "lease.renew-interval", "1s")));
    settings.putAll(CACHE_FOR_AN_HOUR);
    return LakeTestServer.start(dataDir.resolve(registry).resolve(nodeId), customize, settings);
  }

  /**
   * The Flight layer's classes, read from their bytecode: none but the forwarding client (which tells the
   * follower's catalog what the leader registered) calls the listener's methods, and none calls the catalog's.
   */
  private static void noFlightHandlerTellsTheCatalog() throws Exception {
    Map<String, Set<String>> calls = FlightBytecode.methodCalls();
    assertThat(calls).as("classes of the flight layer read").hasSizeGreaterThan(100)
        .containsKey("dev/lake/flight/LakeFlightSqlProducer");
    List<String> tellers = new ArrayList<>();
    calls.forEach((type, called) -> {
      for (String call : called) {
        boolean tells = call.endsWith(".registered") || call.endsWith(".dropped");
        boolean listener = call.startsWith("dev/lake/registry/RegistrationListener.")
            || call.startsWith("dev/lake/query/CachingCatalog.");
        if (tells && listener) {
          tellers.add(type + " -> " + call);
        }
      }
    });
    assertThat(tellers).as("who in the flight layer tells the catalog of a write").containsExactlyInAnyOrder(
        "dev/lake/flight/cluster/Forwarding -> dev/lake/registry/RegistrationListener.registered",
        "dev/lake/flight/cluster/Forwarding -> dev/lake/registry/RegistrationListener.dropped");
  }

  /** Versions the node's engine opened for reading, per table location. */
  private static final class OpenedVersions {
    private final Map<String, List<Long>> opened = new ConcurrentHashMap<>();

    TableEngine wrap(TableEngine real) {
      return new ForwardingTableEngine(real) {
        @Override
        public TableSnapshot open(String location, long version, BufferAllocator allocator) {
          opened.computeIfAbsent(strip(location), k -> java.util.Collections.synchronizedList(new ArrayList<>()))
              .add(version);
          return super.open(location, version, allocator);
        }
      };
    }

    void clear() {
      opened.clear();
    }

    List<Long> of(String location) {
      return List.copyOf(new TreeSet<>(opened.getOrDefault(strip(location), List.of())));
    }

    private static String strip(String location) {
      return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    }
  }

  /** The method references in the constant pools of lake-flight-server's classes ({@code owner.name}). */
  static final class FlightBytecode {
    private FlightBytecode() {}

    static Map<String, Set<String>> methodCalls() throws IOException, URISyntaxException {
      Path root = Path.of(LakeServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Map<String, Set<String>> out = new HashMap<>();
      if (Files.isDirectory(root)) {
        try (Stream<Path> files = Files.walk(root)) {
          for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
            try (InputStream in = Files.newInputStream(p)) {
              read(in, out);
            }
          }
        }
      } else {
        try (JarFile jar = new JarFile(root.toFile())) {
          for (JarEntry e : java.util.Collections.list(jar.entries())) {
            if (e.getName().endsWith(".class")) {
              try (InputStream in = jar.getInputStream(e)) {
                read(in, out);
              }
            }
          }
        }
      }
      // Nested and anonymous classes count as their outer class.
      Map<String, Set<String>> merged = new HashMap<>();
      out.forEach((type, called) -> merged.computeIfAbsent(type.replaceAll("\\$.*", ""), k -> new TreeSet<>())
          .addAll(called));
      return merged;
    }

    private static void read(InputStream stream, Map<String, Set<String>> out) throws IOException {
      DataInputStream in = new DataInputStream(stream);
      if (in.readInt() != 0xCAFEBABE) {
        throw new IOException("not a class file");
      }
      in.readUnsignedShort();
      in.readUnsignedShort();
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      int[] classNames = new int[count];
      int[][] refs = new int[count][];
      int[][] nameAndTypes = new int[count][];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 7 -> classNames[i] = in.readUnsignedShort();
          case 10, 11 -> refs[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
          case 12 -> nameAndTypes[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
          case 3, 4, 9, 17, 18 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++;
          }
          case 8, 16, 19, 20 -> in.readUnsignedShort();
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          default -> throw new IOException("unknown constant pool tag " + tag);
        }
      }
      in.readUnsignedShort(); // access flags
      String self = utf8[classNames[in.readUnsignedShort()]];
      Set<String> called = out.computeIfAbsent(self, k -> new TreeSet<>());
      for (int[] ref : refs) {
        if (ref != null) {
          called.add(utf8[classNames[ref[0]]] + "." + utf8[nameAndTypes[ref[1]][0]]);
        }
      }
    }
  }
}
