package dev.lake.it.support;

import dev.lake.flight.LakeServer;
import dev.lake.flight.auth.PasswordHasher;
import dev.lake.flight.config.ConfigLoader;
import dev.lake.flight.config.LakeConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A real lake node in this JVM started from a YAML file with configured users ({@code auth.users}, hashed like
 * {@code bin/lake passwd} does) plus key overrides, on 127.0.0.1 and a free port, over a data directory.
 */
public final class ConfiguredServer implements AutoCloseable {
  private final LakeServer server;
  private final LakeConfig config;

  private ConfiguredServer(LakeServer server, LakeConfig config) {
    this.server = server;
    this.config = config;
  }

  /** A configured user: name, password (hashed into the file), role. */
  public record TestUser(String name, String password, String role) {}

  public static ConfiguredServer start(Path dataDir, List<TestUser> users, Map<String, String> settings,
      Consumer<LakeServer.Builder> customize) throws Exception {
    LakeConfig loaded = config(dataDir, users, settings);
    LakeServer.Builder builder = LakeServer.builder(loaded);
    customize.accept(builder);
    return new ConfiguredServer(builder.build().start(), loaded);
  }

  /** The configuration a node would load from such a file (for tests of start-up refusals). */
  public static LakeConfig config(Path dataDir, List<TestUser> users, Map<String, String> settings)
      throws Exception {
    Files.createDirectories(dataDir);
    StringBuilder yaml = new StringBuilder("auth:\n  users:\n");
    PasswordHasher hasher = new PasswordHasher();
    for (TestUser u : users) {
      yaml.append("    - name: ").append(u.name()).append('\n')
          .append("      password-hash: \"").append(hasher.hash(u.password().toCharArray())).append("\"\n")
          .append("      role: ").append(u.role()).append('\n');
    }
    Path file = dataDir.resolveSibling(dataDir.getFileName() + "-lake.yaml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    Map<String, String> overrides = new HashMap<>(settings);
    overrides.put("data.dir", dataDir.toString());
    overrides.putIfAbsent("server.host", "127.0.0.1");
    overrides.putIfAbsent("server.port", "0");
    return ConfigLoader.load(Optional.of(file), Map.of(), overrides);
  }

  public int port() {
    return server.port();
  }

  public LakeServer server() {
    return server;
  }

  public LakeConfig config() {
    return config;
  }

  /** A Flight SQL client over plaintext logged in as {@code user}. */
  public FlightTestClient client(String user, String password) {
    return FlightTestClient.connect(port(), user, password);
  }

  /** A Flight client with no credentials at all (plaintext). */
  public FlightClient anonymous(BufferAllocator allocator) {
    return FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port())).build();
  }

  /** A Flight client over TLS trusting {@code ca}, optionally presenting a client certificate. */
  public FlightClient tlsClient(BufferAllocator allocator, Path ca, Optional<TestCertificates.Pem> clientCert)
      throws Exception {
    FlightClient.Builder b = FlightClient.builder(allocator, Location.forGrpcTls("localhost", port()));
    try (InputStream trusted = Files.newInputStream(ca)) {
      b.trustedCertificates(trusted);
      if (clientCert.isPresent()) {
        try (InputStream cert = Files.newInputStream(clientCert.get().chain());
            InputStream key = Files.newInputStream(clientCert.get().key())) {
          b.clientCertificate(cert, key);
          return b.build();
        }
      }
      return b.build();
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
