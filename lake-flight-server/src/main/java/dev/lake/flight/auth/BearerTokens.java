package dev.lake.flight.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Bearer tokens signed with the cluster secret: any node verifies them, no node stores them. A token names the
 * user and its expiry; the role is looked up on every call, so a demoted user loses rights at once.
 */
public final class BearerTokens {
  private static final String DOMAIN = "lake.bearer.v1";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Signer signer;
  private final Clock clock;
  private final Duration lifetime;

  public BearerTokens(Signer signer, Clock clock, Duration lifetime) {
    this.signer = signer;
    this.clock = clock;
    this.lifetime = lifetime;
  }

  public String issue(String user) {
    ObjectNode body = JSON.createObjectNode();
    body.put("u", user);
    body.put("exp", clock.millis() + lifetime.toMillis());
    try {
      byte[] sealed = signer.seal(DOMAIN, JSON.writeValueAsBytes(body));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The user a valid, unexpired token names; empty for anything else. */
  public Optional<String> verify(String token) {
    try {
      byte[] sealed = Base64.getUrlDecoder().decode(token);
      Optional<byte[]> payload = signer.open(DOMAIN, sealed);
      if (payload.isEmpty()) {
        return Optional.empty();
      }
      JsonNode body = JSON.readTree(payload.get());
      if (body.path("exp").asLong(0) <= clock.millis()) {
        return Optional.empty();
      }
      String user = body.path("u").asText(null);
      return Optional.ofNullable(user);
    } catch (IllegalArgumentException | IOException e) {
      return Optional.empty();
    }
  }
}
