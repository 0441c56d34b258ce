package dev.lake.flight.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bearer tokens signed with the cluster secret: any node verifies them, no node stores them. A token names the
 * user, its expiry and the user's <i>token generation</i>: a keyed digest of the user's password hash and role as
 * configured when the token was issued. A node accepts a token only while that digest matches the user's current
 * configuration, so changing a user's password or role (in {@code auth.users}, on every node) revokes every token
 * issued before. The role is also looked up on every call, so a demoted user loses rights at once.
 */
public final class BearerTokens {
  private static final String DOMAIN = "lake.bearer.v1";
  private static final String GENERATION = "lake.token-generation.v1";
  private static final int GENERATION_BYTES = 12;
  private static final int MAX_GENERATIONS = 4096;
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Signer signer;
  private final Clock clock;
  private final Duration lifetime;
  /**
   * Each configured user's token generation, computed once per distinct configuration: the key is the whole
   * {@link User} (name, password hash, role), so a changed password or role is a new key, never a stale generation.
   * Bounded: past {@value #MAX_GENERATIONS} configurations it starts over.
   */
  private final ConcurrentHashMap<User, String> generations = new ConcurrentHashMap<>();
  /**
   * The claims of tokens whose signature was checked, by token text: a client sends its token on every call (three
   * per prepared execution), and checking the signature and parsing the JSON each time was a tenth of the handler
   * threads' time in the point-query profile (docs/performance.md, "Point queries and scalar indexes"). Only the text
   * that was verified maps to its claims; the expiry, the user's configuration and its generation are still checked
   * on every call. Bounded: past {@value #MAX_VERIFIED} tokens it starts over.
   */
  private final ConcurrentHashMap<String, Claims> verified = new ConcurrentHashMap<>();
  private static final int MAX_VERIFIED = 4096;

  public BearerTokens(Signer signer, Clock clock, Duration lifetime) {
    this.signer = signer;
    this.clock = clock;
    this.lifetime = lifetime;
  }

  public String issue(User user) {
    ObjectNode body = JSON.createObjectNode();
    body.put("u", user.name());
    body.put("g", generation(user));
    body.put("exp", clock.millis() + lifetime.toMillis());
    try {
      byte[] sealed = signer.seal(DOMAIN, JSON.writeValueAsBytes(body));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(sealed);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The user a valid, unexpired token names, when it is configured in {@code users} with the password and role it
   * had when the token was issued; empty for anything else.
   */
  public Optional<String> verify(String token, Map<String, User> users) {
    Claims claims = verified.get(token);
    if (claims == null) {
      claims = claims(token);
      if (claims == null) {
        return Optional.empty();
      }
      if (verified.size() >= MAX_VERIFIED) {
        verified.clear();
      }
      verified.put(token, claims);
    }
    if (claims.expiresMillis() <= clock.millis()) {
      return Optional.empty();
    }
    User user = users.get(claims.user());
    if (user == null || !MessageDigest.isEqual(generation(user).getBytes(StandardCharsets.US_ASCII),
        claims.generation().getBytes(StandardCharsets.US_ASCII))) {
      return Optional.empty();
    }
    return Optional.of(user.name());
  }

  /** What a token says, when its signature is the cluster's; null for anything else. */
  private Claims claims(String token) {
    try {
      byte[] sealed = Base64.getUrlDecoder().decode(token);
      Optional<byte[]> payload = signer.open(DOMAIN, sealed);
      if (payload.isEmpty()) {
        return null;
      }
      JsonNode body = JSON.readTree(payload.get());
      return new Claims(body.path("u").asText(""), body.path("g").asText(""), body.path("exp").asLong(0));
    } catch (IllegalArgumentException | IOException e) {
      return null;
    }
  }

  /** A token's signed content: its user, the user's token generation at issue, its expiry (epoch milliseconds). */
  private record Claims(String user, String generation, long expiresMillis) {}

  /** The token generation of {@code user}'s current configuration (keyed with the cluster secret). */
  private String generation(User user) {
    String known = generations.get(user);
    if (known != null) {
      return known;
    }
    if (generations.size() >= MAX_GENERATIONS) {
      generations.clear();
    }
    String computed = computeGeneration(user);
    generations.put(user, computed);
    return computed;
  }

  private String computeGeneration(User user) {
    byte[] material = (user.name() + "\0" + user.passwordHash() + "\0" + user.role().name())
        .getBytes(StandardCharsets.UTF_8);
    byte[] mac = Arrays.copyOf(signer.seal(GENERATION, material), GENERATION_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
  }
}
