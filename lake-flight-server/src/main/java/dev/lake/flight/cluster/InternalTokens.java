package dev.lake.flight.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Signer;
import java.io.IOException;
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
 */
public final class InternalTokens {
  /** The header scheme: {@code authorization: LakeInternal <token>}. */
  public static final String SCHEME = "LakeInternal";
  private static final String DOMAIN = "lake.internal.v1";
  /** Covers the clock skew between nodes; a token is only checked when a call starts. */
  private static final Duration LIFETIME = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Signer signer;
  private final Clock clock;

  /** Who a forwarded call acts for, and which node forwarded it. */
  public record Caller(String user, String viaNode) {
    public Caller {
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(viaNode, "viaNode");
    }
  }

  public InternalTokens(Signer signer, Clock clock) {
    this.signer = Objects.requireNonNull(signer, "signer");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public String issue(String user, String viaNode) {
    ObjectNode body = JSON.createObjectNode();
    body.put("u", user).put("n", viaNode).put("exp", clock.millis() + LIFETIME.toMillis());
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
      if (body.path("exp").asLong(0) <= clock.millis()) {
        return Optional.empty();
      }
      String user = body.path("u").asText(null);
      String node = body.path("n").asText("");
      return user == null ? Optional.empty() : Optional.of(new Caller(user, node));
    } catch (IllegalArgumentException | IOException e) {
      return Optional.empty();
    }
  }
}
