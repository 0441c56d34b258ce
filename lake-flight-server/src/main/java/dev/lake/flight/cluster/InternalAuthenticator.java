package dev.lake.flight.cluster;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/**
 * Authenticates calls on the internal endpoint: only {@code authorization: LakeInternal <token>} from
 * {@link InternalTokens} is accepted (never a client's basic or bearer credentials), and each token only once: its
 * id is remembered until the token expires, and a second call with it is refused (a replay). The peer identity is
 * the caller the token names; {@link InternalCallBinding} then hands the request the token authorizes to the
 * endpoint, which refuses a call that is not that request.
 */
final class InternalAuthenticator implements CallHeaderAuthenticator {
  /** Token ids remembered at most (each for the token's lifetime plus clock skew). */
  private static final long MAX_REMEMBERED = 1_000_000;
  private final InternalTokens tokens;
  private final Cache<String, Boolean> used = Caffeine.newBuilder().maximumSize(MAX_REMEMBERED)
      .expireAfterWrite(InternalTokens.LIFETIME.plus(Duration.ofMinutes(1))).build();

  InternalAuthenticator(InternalTokens tokens) {
    this.tokens = tokens;
  }

  @Override
  public AuthResult authenticate(CallHeaders headers) {
    InternalTokens.Caller caller = caller(tokens, headers);
    if (used.asMap().putIfAbsent(caller.id(), Boolean.TRUE) != null) {
      throw CallStatus.UNAUTHENTICATED.withDescription("the internal token was already used: each forwarded call "
          + "carries a token of its own").toRuntimeException();
    }
    String user = caller.user();
    return () -> user;
  }

  /** The caller a call's valid internal token names. */
  static InternalTokens.Caller caller(InternalTokens tokens, CallHeaders headers) {
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
    return caller.get();
  }
}
