package dev.lake.flight.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Signer;
import java.io.IOException;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * A session as a cookie value: its id and options as JSON, sealed with the cluster secret under its own domain (HMAC,
 * {@link Signer}), base64url. A session token is never accepted as any other token, nor the other way round. The
 * options grant nothing (every call is still authenticated), so the cookie carries no expiry: a session ends when its
 * client drops the cookie ({@code CloseSession} tells it to).
 */
public final class SessionTokens {
  private static final String DOMAIN = "lake.session.v1";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Signer signer;

  public SessionTokens(Signer signer) {
    this.signer = Objects.requireNonNull(signer, "signer");
  }

  public String encode(SessionState session) {
    ObjectNode body = JSON.createObjectNode().put("id", session.id());
    session.catalog().ifPresent(c -> body.put("catalog", c));
    session.schema().ifPresent(s -> body.put("schema", s));
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(signer.seal(DOMAIN, JSON.writeValueAsBytes(body)));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The session a valid token names; empty for anything this cluster did not issue. */
  public Optional<SessionState> decode(String token) {
    try {
      Optional<byte[]> payload = signer.open(DOMAIN, Base64.getUrlDecoder().decode(token));
      if (payload.isEmpty()) {
        return Optional.empty();
      }
      JsonNode body = JSON.readTree(payload.get());
      String id = body.path("id").asText("");
      if (id.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new SessionState(id, text(body, "catalog"), text(body, "schema")));
    } catch (IllegalArgumentException | IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    return v == null || !v.isTextual() ? Optional.empty() : Optional.of(v.asText());
  }
}
