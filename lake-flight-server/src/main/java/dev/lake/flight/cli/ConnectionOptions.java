package dev.lake.flight.cli;

import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * How a client command reaches a server: {@code --url grpc://HOST:PORT} (or {@code grpc+tls://}) or
 * {@code --host/--port}, credentials from {@code --user/--password} or {@code LAKE_USER/LAKE_PASSWORD} (default
 * {@code lake}/{@code lake}), and TLS.
 */
public final class ConnectionOptions {
  @Option(names = "--url", description = "server URL, grpc://HOST:PORT or grpc+tls://HOST:PORT "
      + "(overrides --host/--port/--tls)")
  String url;

  @Option(names = "--host", description = "server host (default: ${DEFAULT-VALUE})", defaultValue = "127.0.0.1")
  String host;

  @Option(names = "--port", description = "server port (default: ${DEFAULT-VALUE})", defaultValue = "32010")
  int port;

  @Option(names = "--user", description = "user name (default: LAKE_USER, else lake)")
  String user;

  @Option(names = "--password", description = "password (default: LAKE_PASSWORD, else lake); prefer the "
      + "environment variable, a flag shows in the process list")
  String password;

  @Option(names = "--tls", description = "connect with TLS")
  boolean tls;

  @Option(names = "--tls-root-certs", paramLabel = "PEM",
      description = "CA certificate(s) to trust for the server's certificate (implies --tls)")
  Path tlsRootCerts;

  /** The resolved endpoint and credentials; {@code env} supplies LAKE_USER and LAKE_PASSWORD. */
  public Endpoint resolve(java.util.Map<String, String> env) {
    String h = host;
    int p = port;
    boolean secure = tls || tlsRootCerts != null;
    if (url != null) {
      URI u;
      try {
        u = URI.create(url);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--url '" + url + "' is not a URL: " + e.getMessage());
      }
      if (u.getHost() == null || u.getPort() < 0) {
        throw new UsageException("--url '" + url + "' needs a host and a port, e.g. grpc://127.0.0.1:32010");
      }
      String scheme = u.getScheme() == null ? "" : u.getScheme();
      switch (scheme) {
        case "grpc", "grpc+tcp" -> { }
        case "grpc+tls" -> secure = true;
        default -> throw new UsageException("--url '" + url + "': the scheme must be grpc or grpc+tls");
      }
      h = u.getHost();
      p = u.getPort();
    }
    String name = user != null ? user : env.getOrDefault("LAKE_USER", "lake");
    String secret = password != null ? password : env.getOrDefault("LAKE_PASSWORD", "lake");
    return new Endpoint(h, p, secure, tlsRootCerts, name, secret);
  }

  /** A resolved connection target. */
  public record Endpoint(String host, int port, boolean tls, Path rootCerts, String user, String password) {
    public Endpoint {
      if (host == null || host.isBlank()) {
        throw new UsageException("the server host is empty");
      }
      if (port <= 0 || port > 65535) {
        throw new UsageException("the server port " + port + " is out of range 1-65535");
      }
    }

    @Override
    public String toString() {
      return (tls ? "grpc+tls://" : "grpc://") + host + ":" + port;
    }
  }
}
