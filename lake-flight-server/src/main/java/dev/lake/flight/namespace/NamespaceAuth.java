package dev.lake.flight.namespace;

import dev.lake.flight.auth.BearerTokens;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.auth.LoginGuard;
import dev.lake.flight.auth.User;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * Authenticates a namespace request with lake's users and roles: {@code Authorization: Bearer <token>} (a token
 * Flight SQL login returned, signed with the cluster secret) or {@code Authorization: Basic} (a configured user and
 * password). Any role may read; a missing, expired or wrong credential is the spec's Unauthenticated. Basic
 * credentials are checked by the node's {@link LoginGuard}, the one Flight SQL logins go through: failed logins are
 * throttled per user name and per remote address (the two endpoints count together), hashing is bounded, unknown
 * users cost a full hash too, and the failures are counted in the same metrics (docs/operations.md).
 */
final class NamespaceAuth {
  private final Map<String, User> users;
  private final BearerTokens tokens;
  private final LoginGuard logins;

  NamespaceAuth(Map<String, User> users, BearerTokens tokens, LoginGuard logins) {
    this.users = Map.copyOf(users);
    this.tokens = tokens;
    this.logins = logins;
  }

  /**
   * @param address the connection's remote IP address (the throttle counts failures per address), if known
   */
  Identity authenticate(String header, Optional<String> address) {
    if (header == null || header.isBlank()) {
      throw unauthenticated("no credentials: send Authorization: Bearer <token> (the token Flight SQL login "
          + "returns) or Basic credentials of a lake user");
    }
    if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      Optional<User> user = tokens.verify(header.substring(7).trim(), users).map(users::get);
      if (user.isEmpty()) {
        throw unauthenticated("the bearer token is invalid or expired: log in again");
      }
      return new Identity(user.get().name(), user.get().role());
    }
    if (header.regionMatches(true, 0, "Basic ", 0, 6)) {
      String decoded;
      try {
        decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw unauthenticated("malformed basic credentials");
      }
      int colon = decoded.indexOf(':');
      String name = colon < 0 ? decoded : decoded.substring(0, colon);
      char[] password = colon < 0 ? new char[0] : decoded.substring(colon + 1).toCharArray();
      try {
        User user = users.get(logins.check(name, password, address, users));
        return new Identity(user.name(), user.role());
      } catch (FlightRuntimeException e) {
        // the guard answers in Flight's terms: a refusal (wrong, unknown or throttled) or too many logins at once
        NamespaceException.Kind kind = e.status().code() == FlightStatusCode.UNAUTHENTICATED
            ? NamespaceException.Kind.UNAUTHENTICATED : NamespaceException.Kind.SERVICE_UNAVAILABLE;
        throw new NamespaceException(kind, e.status().description());
      } finally {
        Arrays.fill(password, '\0');
      }
    }
    throw unauthenticated("unsupported authorization scheme: use Bearer or Basic");
  }

  private static NamespaceException unauthenticated(String message) {
    return new NamespaceException(NamespaceException.Kind.UNAUTHENTICATED, message);
  }
}
