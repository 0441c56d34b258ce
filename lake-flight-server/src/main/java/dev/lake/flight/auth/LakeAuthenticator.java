package dev.lake.flight.auth;

import dev.lake.flight.security.PeerCertificates;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/**
 * Authenticates every call: {@code Authorization: Basic} (checked against the salted hashes in config) is
 * exchanged for a bearer token returned in the response headers; {@code Authorization: Bearer} must carry a
 * token signed with the cluster secret and not expired. With mutual TLS configured, a call without an
 * {@code Authorization} header is authenticated by its client certificate: the verified subject CN
 * ({@link PeerCertificates}) must name a configured user. Anything else is UNAUTHENTICATED.
 */
public final class LakeAuthenticator implements CallHeaderAuthenticator {
  private static final String AUTHORIZATION = "authorization";
  private final Map<String, User> users;
  private final BearerTokens tokens;
  private final boolean certificateLogin;
  private final LoginGuard logins;

  /**
   * @param certificateLogin accept a verified client certificate's subject CN as the user (mutual TLS only)
   * @param logins checks basic credentials (throttled, bounded, constant time)
   */
  public LakeAuthenticator(Map<String, User> users, BearerTokens tokens, boolean certificateLogin,
      LoginGuard logins) {
    this.users = Map.copyOf(users);
    this.tokens = tokens;
    this.certificateLogin = certificateLogin;
    this.logins = logins;
  }

  @Override
  public AuthResult authenticate(CallHeaders headers) {
    String refused = headers.get(PeerCertificates.REFUSED_HEADER);
    if (refused != null) {
      throw CallStatus.UNAUTHENTICATED.withDescription(refused).toRuntimeException();
    }
    String header = headers.get(AUTHORIZATION);
    if (header == null && certificateLogin) {
      return certificate(headers.get(PeerCertificates.HEADER));
    }
    if (header == null) {
      throw CallStatus.UNAUTHENTICATED
          .withDescription("no credentials: log in with a user name and password (basic auth) or a bearer token")
          .toRuntimeException();
    }
    if (header.regionMatches(true, 0, "Basic ", 0, 6)) {
      String user = basic(header.substring(6).trim(),
          Optional.ofNullable(headers.get(PeerCertificates.ADDRESS_HEADER)));
      String token = tokens.issue(users.get(user));
      return new AuthResult() {
        @Override
        public String getPeerIdentity() {
          return user;
        }

        @Override
        public void appendToOutgoingHeaders(CallHeaders outgoing) {
          if (outgoing.get(AUTHORIZATION) == null) {
            outgoing.insert(AUTHORIZATION, "Bearer " + token);
          }
        }
      };
    }
    if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      Optional<String> user = tokens.verify(header.substring(7).trim(), users);
      if (user.isEmpty()) {
        throw CallStatus.UNAUTHENTICATED
            .withDescription("the bearer token is invalid or expired: log in again").toRuntimeException();
      }
      String name = user.get();
      return () -> name;
    }
    throw CallStatus.UNAUTHENTICATED
        .withDescription("unsupported authorization scheme: use Basic or Bearer").toRuntimeException();
  }

  private AuthResult certificate(String subject) {
    if (subject == null) {
      throw CallStatus.UNAUTHENTICATED.withDescription("no credentials: log in with a user name and password, a "
          + "bearer token, or a client certificate whose subject CN names a user").toRuntimeException();
    }
    if (!users.containsKey(subject)) {
      throw CallStatus.UNAUTHENTICATED.withDescription("the client certificate's subject CN names no configured user "
          + "(auth.users)").toRuntimeException();
    }
    return () -> subject;
  }

  private String basic(String encoded, Optional<String> address) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw CallStatus.UNAUTHENTICATED.withDescription("malformed basic credentials").toRuntimeException();
    }
    int colon = decoded.indexOf(':');
    String name = colon < 0 ? decoded : decoded.substring(0, colon);
    char[] password = colon < 0 ? new char[0] : decoded.substring(colon + 1).toCharArray();
    try {
      return logins.check(name, password, address, users);
    } finally {
      java.util.Arrays.fill(password, '\0');
    }
  }
}
