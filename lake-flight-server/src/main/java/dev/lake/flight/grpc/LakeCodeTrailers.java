package dev.lake.flight.grpc;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Puts the {@value StatusMapper#CODE_KEY} trailer on every answer, including those that never pass through
 * {@link StatusMapper}: Arrow's authentication middleware (UNAUTHENTICATED), its defaults for commands lake does not
 * override (UNIMPLEMENTED), gRPC's own refusals. A trailer already set (by the mapping, or forwarded from the
 * leader) is kept. Installed as the outermost interceptor of the Flight endpoints, so it sees each call's final
 * status.
 */
public final class LakeCodeTrailers implements ServerInterceptor {
  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    return next.startCall(new SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        Metadata out = trailers == null ? new Metadata() : trailers;
        if (!out.containsKey(StatusMapper.CODE)) {
          out.put(StatusMapper.CODE, status.getCode().name());
        }
        super.close(status, out);
      }
    }, headers);
  }
}
