package dev.lake.flight.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.lake.flight.auth.BearerTokens;
import dev.lake.flight.auth.LoginGuard;
import dev.lake.flight.auth.User;
import dev.lake.flight.security.SecuritySettings;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.error.CodedFailure;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's Lance REST Namespace endpoint (JDK HTTP server, four named threads; docs/api.md): authenticates each
 * request ({@link NamespaceAuth}), routes it ({@link NamespaceApi}) and answers failures in the spec's error model
 * ({@code {"error", "code", "instance"}} with the spec's HTTP status). HTTPS with the Flight endpoint's PEM files
 * when TLS is configured; without TLS it binds loopback only (unless {@code server.allow-plaintext}).
 */
public final class NamespaceServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY = 1 << 20;

  private final HttpServer server;
  private final ThreadPoolExecutor executor;
  private final NamespaceAuth auth;
  private final NamespaceApi api;

  private NamespaceServer(HttpServer server, ThreadPoolExecutor executor, NamespaceAuth auth, NamespaceApi api) {
    this.server = server;
    this.executor = executor;
    this.auth = auth;
    this.api = api;
  }

  /**
   * Binds {@code settings.host():settings.port()} and starts serving.
   *
   * @param logins the node's failed-login guard (shared with the Flight endpoint)
   * @throws IllegalArgumentException for plaintext on a non-loopback address
   */
  public static NamespaceServer start(NamespaceSettings settings, SecuritySettings security,
      Map<String, User> users, BearerTokens tokens, LoginGuard logins, TableResolver resolver) throws IOException {
    checkListenAddress(settings.host(), security);
    InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
    HttpServer server;
    if (security.tls()) {
      HttpsServer https = HttpsServer.create(address, 64);
      https.setHttpsConfigurator(new HttpsConfigurator(PemTls.context(security.certChain().orElseThrow(),
          security.privateKey().orElseThrow())));
      server = https;
    } else {
      server = HttpServer.create(address, 64);
    }
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(4, 4, 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(256), r -> {
          Thread t = new Thread(r, "lake-namespace-http-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
    server.setExecutor(executor);
    NamespaceServer out = new NamespaceServer(server, executor, new NamespaceAuth(users, tokens, logins),
        new NamespaceApi(resolver));
    server.createContext("/", out::serve);
    server.start();
    LOG.info("Lance REST namespace listening address={}:{} tls={}", settings.host(), server.getAddress().getPort(),
        security.tls());
    return out;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void serve(HttpExchange exchange) {
    String path = exchange.getRequestURI().getRawPath();
    int status;
    JsonNode body;
    String user = "-";
    try {
      user = auth.authenticate(exchange.getRequestHeaders().getFirst("Authorization"), remoteAddress(exchange))
          .user();
      NamespaceApi.Response response = api.handle(new NamespaceApi.Request(exchange.getRequestMethod(),
          segments(path), query(exchange.getRequestURI().getRawQuery()), body(exchange),
          Optional.ofNullable(exchange.getRequestHeaders().getFirst(NamespaceApi.PIN_HEADER))
              .map(String::strip).filter(p -> !p.isEmpty())));
      status = response.status();
      body = response.body();
    } catch (Throwable e) {
      NamespaceException failure = translate(e, path);
      status = failure.kind().httpStatus();
      ObjectNode error = JSON.createObjectNode();
      error.put("error", failure.getMessage());
      error.put("code", failure.kind().code());
      error.put("instance", TableResolver.shorten(path));
      body = error;
      if (failure.kind() == NamespaceException.Kind.UNSUPPORTED) {
        LOG.info("namespace request refused method={} path={} user={} reason={}", exchange.getRequestMethod(),
            TableResolver.shorten(path), user, failure.getMessage());
      }
    }
    LOG.debug("namespace request method={} path={} user={} status={}", exchange.getRequestMethod(),
        TableResolver.shorten(path), user, status);
    send(exchange, status, body);
  }

  /** The connection's remote IP address, as the Flight endpoint reports it to the login guard. */
  private static Optional<String> remoteAddress(HttpExchange exchange) {
    InetSocketAddress remote = exchange.getRemoteAddress();
    return remote == null || remote.getAddress() == null ? Optional.empty()
        : Optional.of(remote.getAddress().getHostAddress());
  }

  private static NamespaceException translate(Throwable e, String path) {
    if (e instanceof NamespaceException n) {
      return n;
    }
    if (e instanceof TableNotFoundException t) {
      return new NamespaceException(NamespaceException.Kind.TABLE_NOT_FOUND, t.getMessage());
    }
    if (e instanceof RegistryUnavailableException) {
      return new NamespaceException(NamespaceException.Kind.SERVICE_UNAVAILABLE, "the registry cannot be reached "
          + "right now: retry shortly");
    }
    if (e instanceof CodedFailure coded) {
      NamespaceException.Kind kind = switch (coded.errorCode()) {
        case NOT_FOUND -> NamespaceException.Kind.TABLE_NOT_FOUND;
        case INVALID_ARGUMENT -> NamespaceException.Kind.INVALID_INPUT;
        case UNAUTHENTICATED -> NamespaceException.Kind.UNAUTHENTICATED;
        case PERMISSION_DENIED -> NamespaceException.Kind.PERMISSION_DENIED;
        case UNAVAILABLE -> NamespaceException.Kind.SERVICE_UNAVAILABLE;
        case UNIMPLEMENTED -> NamespaceException.Kind.UNSUPPORTED;
        case RESOURCE_EXHAUSTED -> NamespaceException.Kind.THROTTLING;
        default -> null;
      };
      if (kind != null) {
        return new NamespaceException(kind, ((Throwable) coded).getMessage());
      }
    }
    String id = UUID.randomUUID().toString();
    LOG.error("namespace request failed errorId={} path={}", id, TableResolver.shorten(path), e);
    return new NamespaceException(NamespaceException.Kind.INTERNAL, "internal error in lake (error id " + id
        + "; the server log has the details)");
  }

  private static JsonNode body(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY + 1);
    }
    if (bytes.length > MAX_BODY) {
      throw NamespaceException.invalid("the request body is larger than " + MAX_BODY + " bytes");
    }
    if (bytes.length == 0) {
      return JSON.createObjectNode();
    }
    JsonNode node;
    try {
      node = JSON.readTree(bytes);
    } catch (IOException e) {
      throw NamespaceException.invalid("the request body is not valid JSON");
    }
    if (node == null || node.isNull() || node.isMissingNode()) {
      return JSON.createObjectNode();
    }
    if (!node.isObject()) {
      throw NamespaceException.invalid("the request body must be a JSON object");
    }
    return node;
  }

  private static List<String> segments(String rawPath) {
    List<String> out = new ArrayList<>();
    for (String s : rawPath.split("/")) {
      if (!s.isEmpty()) {
        out.add(decode(s));
      }
    }
    return out;
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = decode(eq < 0 ? pair : pair.substring(0, eq));
      String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
      out.putIfAbsent(k, v);
    }
    return out;
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw NamespaceException.invalid("malformed percent-encoding in the request URI");
    }
  }

  private static void send(HttpExchange exchange, int status, JsonNode body) {
    try (exchange) {
      if (body == null) {
        exchange.sendResponseHeaders(status, -1);
        return;
      }
      byte[] bytes = JSON.writeValueAsBytes(body);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (IOException e) {
      LOG.debug("namespace response not delivered status={} error={}", status, e.toString());
    }
  }

  private static void checkListenAddress(String host, SecuritySettings security) {
    if (security.tls() || security.allowPlaintext()) {
      return;
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (!a.isLoopbackAddress()) {
          throw new IllegalArgumentException("refusing to serve the namespace in plaintext on " + host + ", which is "
              + "not a loopback address: configure TLS (server.tls.cert-chain and server.tls.private-key serve it "
              + "too), or bind namespace.host to 127.0.0.1");
        }
      }
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("namespace.host '" + host + "' does not resolve");
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
