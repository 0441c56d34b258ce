package dev.lake.flight.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.flight.auth.Signer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.FlightCallHeaders;
import org.junit.jupiter.api.Test;

/** The session cookie: sealed with the cluster secret, read on every call, set when it changes, cleared on close. */
class SessionMiddlewareTest {
  private static final SessionTokens TOKENS = new SessionTokens(signer("secret-one-0123456789abcdefghijklmnopq"));
  private static final SessionTokens OTHER_CLUSTER =
      new SessionTokens(signer("secret-two-0123456789abcdefghijklmnopq"));

  @Test
  void tokensRoundTripAndRefuseWhatThisClusterDidNotSeal() {
    SessionState session = new SessionState("s-1", Optional.of("lake"), Optional.of("main"));
    assertThat(TOKENS.decode(TOKENS.encode(session))).contains(session);
    assertThat(TOKENS.decode(OTHER_CLUSTER.encode(session))).isEmpty();
    assertThat(TOKENS.decode("not-base64!")).isEmpty();
    assertThat(TOKENS.decode("")).isEmpty();
  }

  @Test
  void readsTheCookieAmongOthersAndSendsANewOneOnlyWhenChanged() {
    String token = TOKENS.encode(new SessionState("s-1", Optional.empty(), Optional.of("main")));
    SessionMiddleware call = start("theme=dark; " + SessionMiddleware.COOKIE + "=" + token);
    assertThat(call.session()).map(SessionState::effectiveSchema).contains("main");
    assertThat(sent(call)).isEmpty();

    call.update(call.sessionOrNew().withCatalog(Optional.of("lake")));
    List<String> cookies = sent(call);
    assertThat(cookies).hasSize(1);
    String value = cookies.get(0).substring((SessionMiddleware.COOKIE + "=").length());
    assertThat(TOKENS.decode(value)).map(SessionState::options)
        .contains(java.util.Map.of("catalog", "lake", "schema", "main"));
  }

  @Test
  void closingOrAForeignCookieClearsIt() {
    SessionMiddleware closed = start(SessionMiddleware.COOKIE + "="
        + TOKENS.encode(new SessionState("s-2", Optional.empty(), Optional.empty())));
    assertThat(closed.close()).isTrue();
    assertThat(sent(closed)).containsExactly(SessionMiddleware.COOKIE + "=; Max-Age=0");

    SessionMiddleware foreign = start(SessionMiddleware.COOKIE + "="
        + OTHER_CLUSTER.encode(new SessionState("s-3", Optional.empty(), Optional.of("main"))));
    assertThat(foreign.session()).isEmpty();
    assertThat(sent(foreign)).containsExactly(SessionMiddleware.COOKIE + "=; Max-Age=0");

    SessionMiddleware none = start(null);
    assertThat(none.session()).isEmpty();
    assertThat(none.sessionOrNew().id()).isNotBlank();
    assertThat(sent(none)).isEmpty();
  }

  private static SessionMiddleware start(String cookieHeader) {
    CallHeaders incoming = new FlightCallHeaders();
    if (cookieHeader != null) {
      incoming.insert("cookie", cookieHeader);
    }
    return new SessionMiddleware.Factory(TOKENS).onCallStarted(null, incoming, null);
  }

  private static List<String> sent(SessionMiddleware call) {
    CallHeaders outgoing = new FlightCallHeaders();
    call.onBeforeSendingHeaders(outgoing);
    List<String> out = new java.util.ArrayList<>();
    Iterable<String> values = outgoing.getAll("set-cookie");
    if (values != null) {
      values.forEach(out::add);
    }
    return out;
  }

  private static Signer signer(String secret) {
    return new Signer(secret.getBytes(StandardCharsets.UTF_8));
  }
}
