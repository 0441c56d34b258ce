package dev.lake.flight.session;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.NoOpSessionOptionValueVisitor;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers the session actions. Options: {@value #CATALOG} (lake has one catalog, {@code lake}) and {@value #SCHEMA}
 * (one schema today, {@code main}); names match case-insensitively, a string value sets an option, an empty value
 * resets it to its default. As Flight specifies, every valid option in a request is applied and each invalid one is
 * reported in the result ({@code INVALID_NAME} for an unknown option, {@code INVALID_VALUE} for an unknown catalog or
 * schema or a value that is not a string); the server log says why on one line. {@code GetSessionOptions} returns the
 * options the session set; {@code CloseSession} ends it. As Flight specifies, GetSessionOptions and CloseSession without
 * a session, and any session action with the cookie of a closed session, are NOT_FOUND ({@link ClosedSessions}).
 */
public final class SessionOptionsHandler {
  public static final String CATALOG = "catalog";
  public static final String SCHEMA = "schema";
  private final ClosedSessions closed;
  private static final Logger LOG = LoggerFactory.getLogger(SessionOptionsHandler.class);
  private static final Set<String> CATALOGS = Set.of(SessionState.DEFAULT_CATALOG);
  private static final Set<String> SCHEMAS = Set.of(SessionState.DEFAULT_SCHEMA);

  public SessionOptionsHandler() {
    this(new ClosedSessions());
  }

  /** @param closed the sessions closed on this node (shared with the {@link SessionMiddleware.Factory}) */
  public SessionOptionsHandler(ClosedSessions closed) {
    this.closed = closed;
  }

  /** The session of a call (an empty session when the client has none). */
  public static SessionState session(CallContext context) {
    return middleware(context).sessionOrNew();
  }

  public SetSessionOptionsResult set(CallContext context, SetSessionOptionsRequest request) {
    SessionMiddleware middleware = middleware(context);
    if (middleware.sentClosedSession()) {
      throw closedSession();
    }
    SessionState session = middleware.sessionOrNew();
    Map<String, SetSessionOptionsResult.Error> errors = new LinkedHashMap<>();
    for (Map.Entry<String, SessionOptionValue> option : request.getSessionOptions().entrySet()) {
      String name = option.getKey().toLowerCase(Locale.ROOT);
      SessionOptionValue value = option.getValue();
      if (!name.equals(CATALOG) && !name.equals(SCHEMA)) {
        reject(errors, option.getKey(), SetSessionOptionsResult.ErrorValue.INVALID_NAME, session,
            "unknown session option '" + option.getKey() + "' (lake knows 'catalog' and 'schema')");
        continue;
      }
      Optional<String> text = value.isEmpty() ? Optional.empty() : Optional.ofNullable(asString(value));
      if (!value.isEmpty() && text.isEmpty()) {
        reject(errors, option.getKey(), SetSessionOptionsResult.ErrorValue.INVALID_VALUE, session,
            "session option '" + name + "' takes a string");
        continue;
      }
      Optional<String> normalized = text.map(t -> t.strip().toLowerCase(Locale.ROOT));
      Set<String> known = name.equals(CATALOG) ? CATALOGS : SCHEMAS;
      if (normalized.isPresent() && !known.contains(normalized.get())) {
        reject(errors, option.getKey(), SetSessionOptionsResult.ErrorValue.INVALID_VALUE, session,
            "unknown " + name + " '" + text.get() + "': lake has " + known.size() + ", " + known);
        continue;
      }
      session = name.equals(CATALOG) ? session.withCatalog(normalized) : session.withSchema(normalized);
    }
    middleware.update(session);
    return new SetSessionOptionsResult(errors);
  }

  public GetSessionOptionsResult get(CallContext context) {
    Map<String, SessionOptionValue> options = new LinkedHashMap<>();
    existing(middleware(context)).options()
        .forEach((name, value) -> options.put(name, SessionOptionValueFactory.makeSessionOptionValue(value)));
    return new GetSessionOptionsResult(options);
  }

  public CloseSessionResult close(CallContext context) {
    SessionMiddleware middleware = middleware(context);
    SessionState session = existing(middleware);
    closed.close(session.id());
    LOG.info("session closed sessionId={}", session.id());
    middleware.close();
    return new CloseSessionResult(CloseSessionResult.Status.CLOSED);
  }

  /** The client's session; NOT_FOUND when it has none or sent a closed one. */
  private static SessionState existing(SessionMiddleware middleware) {
    if (middleware.sentClosedSession()) {
      throw closedSession();
    }
    return middleware.session().orElseThrow(() -> new LakeException(ErrorCode.NOT_FOUND, "this client has no"
        + " session: SetSessionOptions starts one (its cookie, " + SessionMiddleware.COOKIE + ", must be sent"
        + " back on later calls)"));
  }

  private static LakeException closedSession() {
    return new LakeException(ErrorCode.NOT_FOUND, "the session was closed (CloseSession); drop its cookie,"
        + " SetSessionOptions starts a new one");
  }

  private static void reject(Map<String, SetSessionOptionsResult.Error> errors, String option,
      SetSessionOptionsResult.ErrorValue error, SessionState session, String why) {
    errors.put(option, new SetSessionOptionsResult.Error(error));
    LOG.info("session option rejected sessionId={} option={} error={} reason={}", session.id(),
        dev.lake.query.sql.Echo.of(option), error, dev.lake.query.sql.Echo.of(why));
  }

  private static String asString(SessionOptionValue value) {
    return value.acceptVisitor(new NoOpSessionOptionValueVisitor<String>() {
      @Override
      public String visit(String v) {
        return v;
      }
    });
  }

  private static SessionMiddleware middleware(CallContext context) {
    SessionMiddleware middleware = context.getMiddleware(SessionMiddleware.KEY);
    if (middleware == null) {
      throw new IllegalStateException("the session middleware is not installed on this endpoint");
    }
    return middleware;
  }
}
