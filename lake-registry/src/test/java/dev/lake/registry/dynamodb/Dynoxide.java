package dev.lake.registry.dynamodb;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * A dynoxide server (a DynamoDB stand-in; npm {@code @dynoxide/linux-x64}, pinned in the project's
 * {@code package.json}) started for a test on 127.0.0.1 and a free port, stopped by {@link #close()}.
 *
 * <p>The binary is {@code <project root>/node_modules/@dynoxide/linux-x64/dynoxide}; the project root is the
 * system property {@code lake.project.root} (set by surefire) or the nearest ancestor of the working directory
 * holding {@code mvnw}. A missing binary fails the test with the command that installs it ({@code npm ci}).
 */
public final class Dynoxide implements AutoCloseable {
  private static final int START_ATTEMPTS = 3;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(15);
  private final Process process;
  private final int port;
  private final Path log;

  private Dynoxide(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts a fresh, empty, in-memory dynoxide; retries the whole start when the chosen port was taken. */
  public static Dynoxide start() {
    Path binary = binary();
    IllegalStateException failure = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      int port = freePort();
      Path log = null;
      Process process = null;
      try {
        log = Files.createTempFile("dynoxide-" + port + "-", ".log");
        process = new ProcessBuilder(binary.toString(), "serve", "--host", "127.0.0.1", "--port",
            Integer.toString(port)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Dynoxide server = new Dynoxide(process, port, log);
        server.awaitReady();
        return server;
      } catch (IOException | RuntimeException e) {
        if (process != null) stop(process);
        failure = new IllegalStateException("dynoxide did not start on port " + port + " (attempt " + attempt
            + "): " + e.getMessage() + "; its output: " + tail(log), e);
      }
    }
    throw failure;
  }

  /** The dynoxide binary, or an {@link IllegalStateException} saying to run {@code npm ci}. */
  public static Path binary() {
    return binary(projectRoot());
  }

  static Path binary(Path root) {
    Path binary = root.resolve("node_modules/@dynoxide/linux-x64/dynoxide");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("the dynoxide binary is missing at " + binary + ": run `npm ci` in " + root
          + " (package.json pins @dynoxide/linux-x64) before running the DynamoDB tests");
    }
    return binary;
  }

  static Path projectRoot() {
    String configured = System.getProperty("lake.project.root");
    if (configured != null && !configured.isBlank() && Files.exists(Paths.get(configured, "mvnw"))) {
      return Paths.get(configured).toAbsolutePath();
    }
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("mvnw"))) return dir;
    }
    throw new IllegalStateException("cannot find the lake project root (no mvnw above "
        + Paths.get("").toAbsolutePath() + "): set -Dlake.project.root");
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  public int port() {
    return port;
  }

  /** A client builder for this server: fixed test credentials, us-east-1, the given interceptors. */
  public DynamoDbClientBuilder clientBuilder(List<ExecutionInterceptor> interceptors) {
    return DynamoDbClient.builder()
        .endpointOverride(endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("lake", "lake")))
        .overrideConfiguration(ClientOverrideConfiguration.builder()
            .executionInterceptors(interceptors)
            .apiCallAttemptTimeout(Duration.ofSeconds(10))
            .retryStrategy(RetryMode.STANDARD)
            .build());
  }

  public DynamoDbClient newClient(ExecutionInterceptor... interceptors) {
    return clientBuilder(List.of(interceptors)).build();
  }

  public boolean isRunning() {
    return process.isAlive();
  }

  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its log. */
  @Override
  public void close() {
    stop(process);
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // the log lives under the build's temporary directory, which the next build empties
    }
  }

  private void awaitReady() {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try (DynamoDbClient client = clientBuilder(List.of()).overrideConfiguration(c -> c
        .apiCallAttemptTimeout(Duration.ofSeconds(1)).retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
      RuntimeException last = null;
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IllegalStateException("dynoxide exited with code " + process.exitValue());
        }
        try {
          client.listTables();
          return;
        } catch (RuntimeException e) {
          last = e;
        }
        pause();
      }
      throw new IllegalStateException("dynoxide did not answer ListTables within " + READY_TIMEOUT.toSeconds()
          + " s (" + (last == null ? "no answer" : last.getMessage()) + ")");
    }
  }

  private static void pause() {
    try {
      Thread.sleep(25);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for dynoxide", e);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("cannot find a free port on 127.0.0.1", e);
    }
  }

  private static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String tail(Path log) {
    if (log == null) return "(none)";
    try {
      String text = Files.readString(log);
      return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }
}
