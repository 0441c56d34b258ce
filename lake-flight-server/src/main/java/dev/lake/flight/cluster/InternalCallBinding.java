package dev.lake.flight.cluster;

import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * Hands the internal endpoint the request the call's token authorizes ({@link InternalTokens#putRequest},
 * {@link InternalTokens#actionRequest}); the endpoint compares it with the request the call actually makes. Runs
 * after {@link InternalAuthenticator}, which already checked and used up the token.
 */
final class InternalCallBinding implements FlightServerMiddleware {
  static final Key<InternalCallBinding> KEY = Key.of("lake-internal-binding");
  private final String request;

  private InternalCallBinding(String request) {
    this.request = request;
  }

  /** Refuses the call unless its token was issued for {@code actual}. */
  void require(String actual) {
    if (!request.equals(actual)) {
      throw CallStatus.UNAUTHENTICATED.withDescription("the internal token was issued for another request")
          .toRuntimeException();
    }
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

  @Override
  public void onCallCompleted(CallStatus status) {}

  @Override
  public void onCallErrored(Throwable err) {}

  static final class Factory implements FlightServerMiddleware.Factory<InternalCallBinding> {
    private final InternalTokens tokens;

    Factory(InternalTokens tokens) {
      this.tokens = tokens;
    }

    @Override
    public InternalCallBinding onCallStarted(CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      return new InternalCallBinding(InternalAuthenticator.caller(tokens, incomingHeaders).request());
    }
  }
}
