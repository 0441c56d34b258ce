package dev.lake.flight.session;

import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session of one call, read from the {@value #COOKIE} cookie when the call starts. When an action changes it, the
 * new cookie goes out with the response headers ({@code set-cookie}); when the session is closed — or the client sent a
 * cookie this cluster did not issue — the cookie is cleared ({@code Max-Age=0}). Arrow's client cookie middleware (the
 * JDBC driver and ADBC use it) sends it back on every later call.
 */
public final class SessionMiddleware implements FlightServerMiddleware {
  public static final FlightServerMiddleware.Key<SessionMiddleware> KEY = FlightServerMiddleware.Key.of("lake-session");
  /** The cookie name Arrow's own session middleware uses, so clients that look for it find it. */
  public static final String COOKIE = "arrow_flight_session_id";
  private static final Logger LOG = LoggerFactory.getLogger(SessionMiddleware.class);

  private final SessionTokens tokens;
  private final boolean clearCookie;
  private final boolean closedCookie;
  private SessionState session;
  private boolean changed;
  private boolean closed;

  private SessionMiddleware(SessionTokens tokens, SessionState session, boolean clearCookie, boolean closedCookie) {
    this.tokens = tokens;
    this.session = session;
    this.clearCookie = clearCookie;
    this.closedCookie = closedCookie;
  }

  /** Whether the client sent the cookie of a session closed on this node (Flight: such requests are NOT_FOUND). */
  public boolean sentClosedSession() {
    return closedCookie;
  }

  /** The session the client sent, if any. */
  public synchronized Optional<SessionState> session() {
    return Optional.ofNullable(session);
  }

  /** The client's session, or a new one (with a fresh id) when it has none; not sent until {@link #update}. */
  public synchronized SessionState sessionOrNew() {
    return session != null ? session : new SessionState(UUID.randomUUID().toString(), Optional.empty(),
        Optional.empty());
  }

  /** Makes {@code next} this client's session; its cookie goes out with this call's response headers. */
  public synchronized void update(SessionState next) {
    session = next;
    changed = true;
    closed = false;
  }

  /** Ends the session: the response tells the client to drop the cookie. Returns whether there was one. */
  public synchronized boolean close() {
    boolean had = session != null;
    session = null;
    changed = false;
    closed = true;
    return had;
  }

  @Override
  public synchronized void onBeforeSendingHeaders(CallHeaders outgoing) {
    if (changed && session != null) {
      outgoing.insert("set-cookie", COOKIE + "=" + tokens.encode(session));
    } else if (closed || clearCookie) {
      outgoing.insert("set-cookie", COOKIE + "=; Max-Age=0");
    }
  }

  @Override
  public void onCallCompleted(CallStatus status) {}

  @Override
  public void onCallErrored(Throwable err) {}

  /** Reads the session cookie of each call. */
  public static final class Factory implements FlightServerMiddleware.Factory<SessionMiddleware> {
    private final SessionTokens tokens;
    private final ClosedSessions closed;

    public Factory(SessionTokens tokens) {
      this(tokens, new ClosedSessions());
    }

    public Factory(SessionTokens tokens, ClosedSessions closed) {
      this.tokens = tokens;
      this.closed = closed;
    }

    private static final long FOREIGN_COOKIE_LOG_INTERVAL_NANOS = 60_000_000_000L;
    private final java.util.concurrent.atomic.AtomicLong lastForeignCookieLog =
        new java.util.concurrent.atomic.AtomicLong(System.nanoTime() - FOREIGN_COOKIE_LOG_INTERVAL_NANOS);
    private final java.util.concurrent.atomic.AtomicLong foreignCookies = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public SessionMiddleware onCallStarted(CallInfo info, CallHeaders incoming, RequestContext context) {
      Optional<String> cookie = cookie(incoming);
      if (cookie.isEmpty()) {
        return new SessionMiddleware(tokens, null, false, false);
      }
      Optional<SessionState> session = tokens.decode(cookie.get());
      if (session.isEmpty()) {
        // Not ours (another cluster's secret, a truncated value): start over rather than fail every call.
        // one line a minute at most: every call of a client (authenticated or not) may carry the cookie
        long now = System.nanoTime();
        long last = lastForeignCookieLog.get();
        foreignCookies.incrementAndGet();
        if (now - last >= FOREIGN_COOKIE_LOG_INTERVAL_NANOS && lastForeignCookieLog.compareAndSet(last, now)) {
          LOG.info("ignoring session cookies this cluster did not issue; those clients' sessions start over "
              + "cookies={} (at most one such line a minute)", foreignCookies.getAndSet(0));
        }
        return new SessionMiddleware(tokens, null, true, false);
      }
      if (closed.isClosed(session.get().id())) {
        return new SessionMiddleware(tokens, null, true, true);
      }
      return new SessionMiddleware(tokens, session.get(), false, false);
    }

    private static Optional<String> cookie(CallHeaders headers) {
      Iterable<String> values = headers.getAll("cookie");
      if (values == null) {
        return Optional.empty();
      }
      for (String header : values) {
        for (String pair : header.split(";")) {
          int eq = pair.indexOf('=');
          if (eq > 0 && pair.substring(0, eq).strip().equals(COOKIE)) {
            String value = pair.substring(eq + 1).strip();
            if (value.startsWith("\"") && value.endsWith("\"") && value.length() >= 2) {
              value = value.substring(1, value.length() - 1);
            }
            return value.isEmpty() ? Optional.empty() : Optional.of(value);
          }
        }
      }
      return Optional.empty();
    }
  }
}
