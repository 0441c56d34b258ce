package dev.lake.flight.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's small HTTP endpoint (JDK HTTP server, two named threads): {@code GET /metrics} (Prometheus text format),
 * {@code GET /health} (liveness: 200 while the process serves), {@code GET /ready} (readiness: 200 or 503 with each
 * check as JSON). No authentication: it binds loopback unless {@code metrics.host} says otherwise.
 */
public final class ObservabilityServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ObservabilityServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ThreadPoolExecutor executor;

  private ObservabilityServer(HttpServer server, ThreadPoolExecutor executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Binds {@code settings.host():settings.port()} and starts serving. */
  public static ObservabilityServer start(MetricsSettings settings, LakeMetrics metrics, Readiness readiness)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 16);
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(32), r -> {
          Thread t = new Thread(r, "lake-metrics-http-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
    server.setExecutor(executor);
    server.createContext("/metrics", exchange -> answer(exchange, () ->
        new Response(200, PROMETHEUS_TEXT, metrics.scrape())));
    server.createContext("/health", exchange -> answer(exchange, () ->
        new Response(200, "application/json", "{\"status\":\"UP\"}")));
    server.createContext("/ready", exchange -> answer(exchange, () -> ready(readiness.check())));
    server.createContext("/", exchange -> answer(exchange, () ->
        new Response(404, "text/plain; charset=utf-8", "not found: try /metrics, /health or /ready")));
    server.start();
    if (!server.getAddress().getAddress().isLoopbackAddress()) {
      LOG.warn("the metrics endpoint has no authentication and listens on a non-loopback address={}: keep it on a "
          + "private network", settings.host());
    }
    LOG.info("metrics endpoint listening address={}:{} paths=/metrics,/health,/ready", settings.host(),
        server.getAddress().getPort());
    return new ObservabilityServer(server, executor);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private record Response(int status, String contentType, String body) {}

  private static Response ready(Readiness.Report report) {
    ObjectNode out = JSON.createObjectNode();
    out.put("status", report.ready() ? "READY" : "NOT_READY");
    ObjectNode checks = out.putObject("checks");
    report.checks().forEach(checks::put);
    return new Response(report.ready() ? 200 : 503, "application/json", out.toString());
  }

  private static void answer(HttpExchange exchange, java.util.function.Supplier<Response> handler) {
    try (exchange) {
      Response response;
      if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
        response = new Response(405, "text/plain; charset=utf-8", "only GET is served here");
      } else {
        try {
          response = handler.get();
        } catch (RuntimeException e) {
          LOG.warn("observability endpoint failed path={} error={}", exchange.getRequestURI().getPath(),
              e.toString());
          response = new Response(500, "text/plain; charset=utf-8", "error: " + e.getClass().getSimpleName());
        }
      }
      byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      boolean head = "HEAD".equals(exchange.getRequestMethod());
      exchange.sendResponseHeaders(response.status(), head ? -1 : body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
