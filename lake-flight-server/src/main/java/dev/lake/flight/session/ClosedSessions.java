package dev.lake.flight.session;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;

/**
 * The ids of sessions closed on this node, so that a client which sends a closed session's cookie again is answered
 * NOT_FOUND, as Flight specifies for CloseSession. Sessions live in their sealed cookies, not in server memory, so this
 * is the only session state a node keeps: bounded in number and age (a cookie older than that is again a new
 * session), and local to the node (another node of a cluster does not know the close; docs/api.md, "Session
 * options").
 */
public final class ClosedSessions {
  /** How many closed session ids a node remembers. */
  public static final long MAX_REMEMBERED = 100_000;
  /** How long a node remembers a closed session id. */
  public static final Duration REMEMBERED_FOR = Duration.ofHours(24);

  private final Cache<String, Boolean> closed = Caffeine.newBuilder().maximumSize(MAX_REMEMBERED)
      .expireAfterWrite(REMEMBERED_FOR).build();

  void close(String sessionId) {
    closed.put(sessionId, Boolean.TRUE);
  }

  boolean isClosed(String sessionId) {
    return closed.getIfPresent(sessionId) != null;
  }
}
