package dev.lake.flight.namespace;

import dev.lake.flight.auth.BearerTokens;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.auth.PasswordHasher;
import dev.lake.flight.auth.User;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Authenticates a namespace request with lake's users and roles: {@code Authorization: Bearer <token>} (a token
 * Flight SQL login returned, signed with the cluster secret) or {@code Authorization: Basic} (a configured user and
 * password). Any role may read; a missing, expired or wrong credential is the spec's Unauthenticated.
 */
final class NamespaceAuth {
  private final Map<String, User> users;
  private final BearerTokens tokens;

  NamespaceAuth(Map<String, User> users, BearerTokens tokens) {
    this.users = Map.copyOf(users);
    this.tokens = tokens;
  }

  Identity authenticate(String header) {
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
      User user = users.get(name);
      if (user == null || !PasswordHasher.verify(password, user.passwordHash())) {
        throw unauthenticated("wrong user name or password");
      }
      return new Identity(user.name(), user.role());
    }
    throw unauthenticated("unsupported authorization scheme: use Bearer or Basic");
  }

  private static NamespaceException unauthenticated(String message) {
    return new NamespaceException(NamespaceException.Kind.UNAUTHENTICATED, message);
  }
}
