package dev.lake.it.support;

import dev.lake.flight.LakeServer;
import dev.lake.flight.config.ConfigLoader;
import dev.lake.flight.config.LakeConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/** A real lake node in this JVM on 127.0.0.1 and a free port, over a temp data directory. */
public final class LakeTestServer implements AutoCloseable {
  private final LakeServer server;

  private LakeTestServer(LakeServer server) {
    this.server = server;
  }

  public static LakeTestServer start(Path dataDir) throws Exception {
    return start(dataDir, b -> {}, Map.of());
  }

  public static LakeTestServer start(Path dataDir, Consumer<LakeServer.Builder> customize) throws Exception {
    return start(dataDir, customize, Map.of());
  }

  public static LakeTestServer start(Path dataDir, Consumer<LakeServer.Builder> customize,
      Map<String, String> settings) throws Exception {
    Map<String, String> overrides = new HashMap<>(settings);
    overrides.put("data.dir", dataDir.toString());
    overrides.putIfAbsent("server.host", "127.0.0.1");
    overrides.putIfAbsent("server.port", "0");
    // Test servers start many times per suite: no executor warm-up unless a test asks (query.warmup-rows).
    overrides.putIfAbsent("query.warmup-rows", "0");
    // ... nor background statistics analysis (it would race tests that count Lance SQL statements)
    overrides.putIfAbsent("query.auto-analyze", "false");
    LakeConfig config = ConfigLoader.load(Optional.empty(), Map.of(), overrides);
    LakeServer.Builder builder = LakeServer.builder(config);
    customize.accept(builder);
    return new LakeTestServer(builder.build().start());
  }

  public int port() {
    return server.port();
  }

  public LakeServer server() {
    return server;
  }

  /** A JDBC URL for the Flight SQL driver, logged in as the default user. */
  public String jdbcUrl() {
    return "jdbc:arrow-flight-sql://127.0.0.1:" + port() + "/?useEncryption=false&user=lake&password=lake";
  }

  public FlightTestClient client() {
    return FlightTestClient.connect(port(), "lake", "lake");
  }

  @Override
  public void close() {
    server.close();
  }
}
