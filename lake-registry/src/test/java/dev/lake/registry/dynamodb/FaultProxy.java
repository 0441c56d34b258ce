package dev.lake.registry.dynamodb;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP proxy in front of a DynamoDB endpoint that injects faults into chosen operations (by the
 * {@code X-Amz-Target} header): a response lost after the request was applied, a 500 before forwarding,
 * a transaction cancelled by a TransactionConflict, a throttling answer, or an action run just before
 * forwarding (a competing writer). Faults are consumed one per matching request, in order.
 */
public final class FaultProxy implements AutoCloseable {
  /** What happens to one request. */
  public sealed interface Fault
      permits LoseResponse, ForgetToken, ServerErrorBeforeForwarding, Conflict, Throttle, Before {}

  /** Forward (the server applies it), then close the connection without an answer. */
  public record LoseResponse() implements Fault {}

  /**
   * Forward with a fresh ClientRequestToken, as if the server had forgotten the first attempt's token (real
   * DynamoDB remembers tokens for 10 minutes; dynoxide remembers them too): the retry then meets its own
   * earlier write as a failed condition, and only a re-read can tell.
   */
  public record ForgetToken() implements Fault {}

  /** Answer 500 InternalServerError without forwarding (nothing applied). */
  public record ServerErrorBeforeForwarding() implements Fault {}

  /** Answer TransactionCanceledException: TransactionConflict on the first of {@code items}, None on the rest. */
  public record Conflict(int items) implements Fault {}

  /** Answer ProvisionedThroughputExceededException without forwarding. */
  public record Throttle() implements Fault {}

  /** Run {@code action} (e.g. a competing write through another client), then forward normally. */
  public record Before(Runnable action) implements Fault {}

  private static final Set<String> HOP_HEADERS = Set.of("host", "content-length", "connection", "expect",
      "upgrade", "transfer-encoding", "keep-alive");
  private final HttpServer server;
  private final ExecutorService pool;
  private final HttpClient client;
  private final URI target;
  private final Map<String, Queue<Fault>> faults = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> forwarded = new ConcurrentHashMap<>();

  private FaultProxy(URI target) throws IOException {
    this.target = target;
    this.pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "fault-proxy"));
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext("/", this::handle);
    server.setExecutor(pool);
    server.start();
  }

  public static FaultProxy start(URI target) {
    try {
      return new FaultProxy(target);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the fault proxy on 127.0.0.1", e);
    }
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Queues faults for the next requests of {@code operation} (e.g. "TransactWriteItems"). */
  public void inject(String operation, Fault... next) {
    faults.computeIfAbsent(operation, k -> new ConcurrentLinkedQueue<>()).addAll(List.of(next));
  }

  /** How many requests of {@code operation} reached the server. */
  public int forwarded(String operation) {
    return forwarded.computeIfAbsent(operation, k -> new AtomicInteger()).get();
  }

  /** Faults queued but not yet used. */
  public int pending(String operation) {
    Queue<Fault> queue = faults.get(operation);
    return queue == null ? 0 : queue.size();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try {
      String targetHeader = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      String operation = targetHeader == null ? "" : targetHeader.substring(targetHeader.indexOf('.') + 1);
      byte[] body = exchange.getRequestBody().readAllBytes();
      Queue<Fault> queue = faults.get(operation);
      Fault fault = queue == null ? null : queue.poll();
      if (fault instanceof ServerErrorBeforeForwarding) {
        answer(exchange, 500, "com.amazonaws.dynamodb.v20120810#InternalServerError", "injected 500", "");
        return;
      }
      if (fault instanceof Throttle) {
        answer(exchange, 400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
            "injected throttling", "");
        return;
      }
      if (fault instanceof Conflict conflict) {
        StringBuilder reasons = new StringBuilder("[{\"Code\":\"TransactionConflict\",\"Message\":\"injected\"}");
        for (int i = 1; i < conflict.items(); i++) reasons.append(",{\"Code\":\"None\"}");
        reasons.append(']');
        answer(exchange, 400, "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
            "Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]",
            ",\"CancellationReasons\":" + reasons);
        return;
      }
      if (fault instanceof Before before) before.action().run();
      if (fault instanceof ForgetToken) {
        body = new String(body, StandardCharsets.UTF_8).replaceFirst("\"ClientRequestToken\":\"[^\"]*\"",
            "\"ClientRequestToken\":\"" + java.util.UUID.randomUUID() + "\"").getBytes(StandardCharsets.UTF_8);
      }
      HttpResponse<byte[]> response = forward(exchange, body);
      forwarded.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
      if (fault instanceof LoseResponse) return;
      response.headers().map().forEach((name, values) -> {
        if (!HOP_HEADERS.contains(name.toLowerCase()) && !name.startsWith(":")) {
          exchange.getResponseHeaders().put(name, values);
        }
      });
      exchange.sendResponseHeaders(response.statusCode(), response.body().length == 0 ? -1 : response.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      exchange.close();
    }
  }

  private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI()))
        .timeout(Duration.ofSeconds(10))
        .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
    exchange.getRequestHeaders().forEach((name, values) -> {
      if (!HOP_HEADERS.contains(name.toLowerCase())) values.forEach(v -> request.header(name, v));
    });
    return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static void answer(HttpExchange exchange, int status, String type, String message, String extra)
      throws IOException {
    byte[] body = ("{\"__type\":\"" + type + "\",\"message\":\"" + message + "\"" + extra + "}")
        .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
    try {
      pool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
