package dev.lake.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightClientMiddleware;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Raw HTTP against lake's Lance REST Namespace (java.net.http, JSON), and a bearer token from a real Flight SQL
 * login (the {@code authorization} header the server returns).
 */
public final class NamespaceClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String base;

  public NamespaceClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  public String uri() {
    return base;
  }

  /** One answer: HTTP status and JSON body (null when empty). */
  public record Answer(int status, JsonNode body) {}

  public Answer call(String method, String path, String body, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
    headers.forEach(b::header);
    if ("GET".equals(method)) {
      b.GET();
    } else {
      b.method(method, HttpRequest.BodyPublishers.ofString(body == null ? "" : body))
          .header("Content-Type", "application/json");
    }
    try {
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public Answer call(String method, String path, String body, String authorization) {
    return call(method, path, body, Map.of("Authorization", authorization));
  }

  /** Logs in over Flight SQL with basic credentials and returns the {@code Bearer ...} header value it answered. */
  public static String bearer(int flightPort, String user, String password) throws Exception {
    AtomicReference<String> token = new AtomicReference<>();
    FlightClientMiddleware.Factory capture = (CallInfo info) -> new FlightClientMiddleware() {
      @Override
      public void onBeforeSendingHeaders(CallHeaders outgoing) {}

      @Override
      public void onHeadersReceived(CallHeaders incoming) {
        String a = incoming.get("authorization");
        if (a != null) {
          token.set(a);
        }
      }

      @Override
      public void onCallCompleted(CallStatus status) {}
    };
    try (BufferAllocator allocator = new RootAllocator();
        FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", flightPort))
            .intercept(capture).build()) {
      client.authenticateBasicToken(user, password);
    }
    if (token.get() == null || !token.get().startsWith("Bearer ")) {
      throw new IllegalStateException("the login returned no bearer token");
    }
    return token.get();
  }
}
