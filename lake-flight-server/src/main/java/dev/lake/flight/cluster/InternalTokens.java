package dev.lake.flight.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Signer;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * Credentials of node-to-node calls: a follower forwarding a write to the leader's internal endpoint sends a token
 * sealed with the cluster secret (HMAC-SHA256, its own domain, so neither a client's bearer token nor any other
 * signed value is accepted here, and this token is not accepted on the public endpoint) that names the <i>caller</i>
 * (the user the follower authenticated) and the forwarding node. The leader looks the user's role up in its own
 * configuration. Every node of a cluster must share {@code cluster.secret} and {@code auth.users}.
 *
 * <p>Each token is bound to the one call it authorizes: it names the request ({@link #putRequest} — a digest of the
 * forwarded ingest's descriptor — or {@link #actionRequest} — the action's type and a digest of its body), which the
 * leader compares with the call it arrives on, and carries a random id the leader accepts once
 * ({@link InternalAuthenticator}), so a token seen on the wire can be neither replayed nor used for another request.
 */
public final class InternalTokens {
  /** The header scheme: {@code authorization: LakeInternal <token>}. */
  public static final String SCHEME = "LakeInternal";
  private static final String DOMAIN = "lake.internal.v1";
  /** Covers the clock skew between nodes; a token is only checked when a call starts. */
  public static final Duration LIFETIME = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Signer signer;
  private final Clock clock;

  private static final SecureRandom RANDOM = new SecureRandom();

  /** Who a forwarded call acts for, which node forwarded it, the request it authorizes and its one-time id. */
  public record Caller(String user, String viaNode, String request, String id, long expiresAtMillis) {
    public Caller {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(viaNode, "viaNode");
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(id, "id");
    }
  }

  /** The request a forwarded ingest with descriptor command {@code command} is. */
  public static String putRequest(byte[] command) {
    return "put:" + digest(command);
  }

  /** The request a forwarded action is. */
  public static String actionRequest(String type, byte[] body) {
    return "action:" + type + ":" + digest(body);
  }

  private static String digest(byte[] bytes) {
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
          .digest(bytes == null ? new byte[0] : bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available in this JVM", e);
    }
  }

  public InternalTokens(Signer signer, Clock clock) {
    this.signer = Objects.requireNonNull(signer, "signer");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A token for {@code user}, forwarded by {@code viaNode}, good once for {@code request}. */
  public String issue(String user, String viaNode, String request) {
    byte[] id = new byte[16];
    RANDOM.nextBytes(id);
    ObjectNode body = JSON.createObjectNode();
    body.put("u", user).put("n", viaNode).put("r", request)
        .put("j", Base64.getUrlEncoder().withoutPadding().encodeToString(id))
        .put("exp", clock.millis() + LIFETIME.toMillis());
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(signer.seal(DOMAIN, JSON.writeValueAsBytes(body)));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The caller a valid, unexpired token names; empty for anything else. */
  public Optional<Caller> verify(String token) {
    try {
      Optional<byte[]> payload = signer.open(DOMAIN, Base64.getUrlDecoder().decode(token));
      if (payload.isEmpty()) {
        return Optional.empty();
      }
      JsonNode body = JSON.readTree(payload.get());
      long expires = body.path("exp").asLong(0);
      if (expires <= clock.millis()) {
        return Optional.empty();
      }
      String user = body.path("u").asText(null);
      String node = body.path("n").asText("");
      String request = body.path("r").asText(null);
      String id = body.path("j").asText(null);
      return user == null || request == null || id == null ? Optional.empty()
          : Optional.of(new Caller(user, node, request, id, expires));
    } catch (IllegalArgumentException | IOException e) {
      return Optional.empty();
    }
  }
}
