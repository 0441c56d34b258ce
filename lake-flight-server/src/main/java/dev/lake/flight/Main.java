package dev.lake.flight;

import dev.lake.flight.auth.PasswordHasher;
import dev.lake.flight.cli.CliErrors;
import dev.lake.flight.cli.DescribeCommand;
import dev.lake.flight.cli.DropCommand;
import dev.lake.flight.cli.IngestCommand;
import dev.lake.flight.cli.MaintainCommand;
import dev.lake.flight.cli.StatusCommand;
import dev.lake.flight.cli.TablesCommand;
import dev.lake.flight.demo.DemoDataset;
import dev.lake.flight.config.ConfigLoader;
import dev.lake.flight.config.LakeConfig;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code lake} command line: {@code server} runs a node, {@code passwd} prints a password hash, and the client
 * commands of {@link dev.lake.flight.cli} talk to a running server over Flight SQL. Exit codes: 0 ok, 1 failed (the
 * server's message and lake-code on stderr), 2 usage.
 */
@Command(name = "lake", mixinStandardHelpOptions = true, version = "lake " + LakeServer.VERSION,
    description = "A lakehouse SQL server: Arrow Flight SQL over Lance tables.",
    subcommands = {Main.Server.class, IngestCommand.class, TablesCommand.class, DescribeCommand.class,
        DropCommand.class, MaintainCommand.class, StatusCommand.class, Main.Passwd.class})
public final class Main implements Callable<Integer> {

  public static void main(String[] args) {
    if (args.length > 0 && !"server".equals(args[0])) {
      // a client command reports failures in one line (CliErrors): no stack traces from Arrow's login code; and its
      // stdout is its output: logback's own status lines (printed there on a configuration warning) stay out of it
      System.setProperty("lake.client.handshake.log", "OFF");
      System.setProperty("logback.statusListenerClass", "ch.qos.logback.core.status.NopStatusListener");
    }
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    int code = commandLine().execute(args);
    if (code != 0 || args.length == 0 || !"server".equals(args[0])) {
      System.exit(code);
    }
  }

  /** The command line with lake's error handling (one line on stderr, exit codes of {@link CliErrors}). */
  public static CommandLine commandLine() {
    return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(new CliErrors());
  }

  @Override
  public Integer call() {
    CommandLine.usage(this, System.out);
    return 0;
  }

  @Command(name = "server", mixinStandardHelpOptions = true,
      description = "Run a lake node (single node by default: RocksDB registry and Lance data under --data-dir).")
  static final class Server implements Callable<Integer> {
    @Option(names = "--config", description = "YAML configuration file (keys in docs/config.md)")
    Path config;

    @Option(names = "--data-dir", description = "data directory (default ./lake-data)")
    String dataDir;

    @Option(names = "--host", description = "address to bind (default 127.0.0.1)")
    String host;

    @Option(names = "--port", description = "port to bind; 0 picks a free one (default 32010)")
    Integer port;

    @Option(names = "--node-id", description = "this node's id (default node-1)")
    String nodeId;

    @Option(names = "--demo", description = "load the TPC-H tables (nation, region, part, supplier, partsupp, "
        + "customer, orders, lineitem) at --demo-scale into every one of them that does not exist yet, before "
        + "listening; existing tables are never touched, so a restart loads nothing again")
    boolean demo;

    @Option(names = "--demo-scale", defaultValue = "0.01", description = "TPC-H scale factor for --demo "
        + "(default: ${DEFAULT-VALUE}, about 87,000 rows; at most 1)")
    double demoScale;

    @Override
    public Integer call() throws Exception {
      Map<String, String> overrides = new LinkedHashMap<>();
      if (dataDir != null) overrides.put("data.dir", dataDir);
      if (host != null) overrides.put("server.host", host);
      if (port != null) overrides.put("server.port", Integer.toString(port));
      if (nodeId != null) overrides.put("node.id", nodeId);
      LakeConfig cfg;
      try {
        cfg = ConfigLoader.load(Optional.ofNullable(config), System.getenv(), overrides);
      } catch (IllegalArgumentException e) {
        System.err.println("lake: " + e.getMessage());
        return 2;
      }
      dev.lake.flight.metrics.LogFormat.apply(cfg.log());
      LakeServer server;
      try {
        server = LakeServer.builder(cfg).build().start();
      } catch (IllegalArgumentException | IllegalStateException | IOException e) {
        System.err.println("lake: cannot start: " + e.getMessage());
        return 1;
      }
      if (demo) {
        try {
          List<String> loaded = new DemoDataset(demoScale).loadMissing(server);
          System.out.println(loaded.isEmpty() ? "demo: the TPC-H tables are there already"
              : "demo: loaded TPC-H (scale " + demoScale + ") tables " + String.join(", ", loaded));
        } catch (RuntimeException e) {
          server.close();
          System.err.println("lake: cannot load the demo dataset: " + CliErrors.describe(e));
          return 1;
        }
      }
      CountDownLatch stopped = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        server.close();
        stopped.countDown();
      }, "lake-shutdown"));
      String hostPort = cfg.host() + ":" + server.port();
      System.out.println("listening on " + hostPort);
      System.out.println("JDBC URL: jdbc:arrow-flight-sql://" + hostPort + "/?useEncryption="
          + (cfg.security().tls() ? "true&tlsRootCerts=<the CA certificate PEM file>" : "false")
          + (cfg.defaultPasswordInForce() ? "&user=lake&password=lake" : ""));
      System.out.flush();
      stopped.await();
      return 0;
    }
  }

  @Command(name = "passwd", mixinStandardHelpOptions = true,
      description = "Read a password (twice on a terminal, once from stdin otherwise) and print its salted hash "
          + "for auth.users[].password-hash.")
  static final class Passwd implements Callable<Integer> {
    @Override
    public Integer call() throws IOException {
      Console console = System.console();
      char[] password;
      if (console != null) {
        password = console.readPassword("password: ");
        char[] again = console.readPassword("again: ");
        if (password == null || !java.util.Arrays.equals(password, again)) {
          System.err.println("lake: the passwords differ");
          return 1;
        }
      } else {
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (line == null || line.isEmpty()) {
          System.err.println("lake: no password on standard input");
          return 1;
        }
        password = line.toCharArray();
      }
      System.out.println(new PasswordHasher().hash(password));
      return 0;
    }
  }
}
