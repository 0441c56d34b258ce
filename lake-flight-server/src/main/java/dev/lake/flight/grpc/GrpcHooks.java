package dev.lake.flight.grpc;

import dev.lake.flight.streams.DoPutGuard;
import dev.lake.flight.streams.FlightServiceGuard;
import dev.lake.flight.streams.GrpcInternals;
import io.grpc.ServerInterceptor;
import io.grpc.netty.NettyServerBuilder;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What lake adds to the gRPC server under a Flight endpoint (Arrow's {@code grpc.builderConsumer} transport hint):
 * the DoPut guard ({@link FlightServiceGuard}) and {@link LakeCodeTrailers}, which must see every call's final
 * status. Arrow registers its middleware interceptor (authentication among it) after this hook runs, which would
 * make it the outermost one and its refusals (UNAUTHENTICATED) would bypass the trailer; so the server builder's
 * interceptor list is replaced, by reflection, with one that keeps {@link LakeCodeTrailers} outermost whatever is
 * added later. Should that fail (another gRPC version), the trailer is still added to every answer but those.
 */
public final class GrpcHooks {
  private static final Logger LOG = LoggerFactory.getLogger(GrpcHooks.class);

  private GrpcHooks() {}

  public static Consumer<NettyServerBuilder> consumer() {
    return builder -> {
      FlightServiceGuard.install(builder, new DoPutGuard(StatusMapper::toStatus));
      LakeCodeTrailers trailers = new LakeCodeTrailers();
      if (!keepOutermost(builder, trailers)) {
        builder.intercept(trailers);
      }
    };
  }

  /** Installs {@code last} as the outermost server interceptor, also outside interceptors added after this. */
  private static boolean keepOutermost(NettyServerBuilder builder, ServerInterceptor last) {
    try {
      Object impl = GrpcInternals.field(builder.getClass(), "serverImplBuilder").get(builder);
      Field list = GrpcInternals.field(impl.getClass(), "interceptors");
      @SuppressWarnings("unchecked")
      List<ServerInterceptor> current = (List<ServerInterceptor>) list.get(impl);
      OutermostLast replacement = new OutermostLast(last);
      replacement.addAll(current);
      list.set(impl, replacement);
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("could not keep the lake-code trailer interceptor outermost; Arrow's own refusals (UNAUTHENTICATED) "
          + "will lack the lake-code trailer: {}", e.toString());
      return false;
    }
  }


  /** An interceptor list whose array form (what gRPC's server reads once) ends with {@code last}. */
  private static final class OutermostLast extends ArrayList<ServerInterceptor> {
    private final transient ServerInterceptor last;

    OutermostLast(ServerInterceptor last) {
      this.last = last;
    }

    @Override
    public <T> T[] toArray(T[] a) {
      List<ServerInterceptor> all = new ArrayList<>();
      for (ServerInterceptor i : this) {
        all.add(i);
      }
      all.add(last);
      return all.toArray(a);
    }
  }
}
