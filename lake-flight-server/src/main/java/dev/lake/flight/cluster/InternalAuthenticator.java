package dev.lake.flight.cluster;

import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/**
 * Authenticates calls on the internal endpoint: only {@code authorization: LakeInternal <token>} from
 * {@link InternalTokens} is accepted (never a client's basic or bearer credentials). The peer identity is the
 * caller the token names.
 */
final class InternalAuthenticator implements CallHeaderAuthenticator {
  private final InternalTokens tokens;

  InternalAuthenticator(InternalTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public AuthResult authenticate(CallHeaders headers) {
    String header = headers.get("authorization");
    String prefix = InternalTokens.SCHEME + " ";
    if (header == null || !header.regionMatches(true, 0, prefix, 0, prefix.length())) {
      throw CallStatus.UNAUTHENTICATED.withDescription("this is lake's internal endpoint: only other nodes of the "
          + "cluster call it (clients use the Flight SQL port)").toRuntimeException();
    }
    Optional<InternalTokens.Caller> caller = tokens.verify(header.substring(prefix.length()).trim());
    if (caller.isEmpty()) {
      throw CallStatus.UNAUTHENTICATED.withDescription("the internal token is invalid or expired: every node of "
          + "a cluster must share cluster.secret").toRuntimeException();
    }
    String user = caller.get().user();
    return () -> user;
  }
}
