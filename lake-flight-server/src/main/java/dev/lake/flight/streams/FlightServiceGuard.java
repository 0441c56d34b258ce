package dev.lake.flight.streams;

import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs the {@link DoPutGuard} on Arrow's Flight service. gRPC parses a request message before any interceptor
 * sees it, and a message that fails to parse ends the call as UNKNOWN ("Application error processing RPC") outside
 * lake's error mapping. So the service Arrow registered is replaced (by name) with the same service whose messages
 * stay bytes until inside the call chain ({@link ServerInterceptors#useInputStreamMessages}): the guard's outer
 * interceptor then sees a parse failure as an exception it can answer INVALID_ARGUMENT, and its inner one sees each
 * parsed message before Arrow's reader. Arrow's handlers, interceptors and marshallers are unchanged.
 *
 * <p>Arrow's builder offers no hook to wrap its service, so the one registered is read from gRPC's builder by
 * reflection. Should that fail (another gRPC version), the guard is installed as a server-wide interceptor instead:
 * everything but the parse-failure answer still holds, and a warning says so.
 */
public final class FlightServiceGuard {
  private static final Logger LOG = LoggerFactory.getLogger(FlightServiceGuard.class);
  static final String SERVICE = "arrow.flight.protocol.FlightService";

  private FlightServiceGuard() {}

  public static void install(NettyServerBuilder builder, DoPutGuard guard) {
    ServerServiceDefinition arrow = registered(builder);
    if (arrow == null) {
      LOG.warn("could not wrap Arrow's Flight service; DoPut messages that do not parse answer UNKNOWN");
      builder.intercept(guard.parsed());
      builder.intercept(guard.raw());
      return;
    }
    ServerServiceDefinition checked = ServerInterceptors.intercept(arrow, guard.parsed());
    ServerServiceDefinition bytes = ServerInterceptors.useInputStreamMessages(checked);
    builder.addService(ServerInterceptors.intercept(bytes, guard.raw()));
  }

  @SuppressWarnings("unchecked")
  private static ServerServiceDefinition registered(NettyServerBuilder builder) {
    try {
      Object impl = GrpcInternals.field(builder.getClass(), "serverImplBuilder").get(builder);
      Object registry = GrpcInternals.field(impl.getClass(), "registryBuilder").get(impl);
      Map<String, ServerServiceDefinition> services = (Map<String, ServerServiceDefinition>)
          GrpcInternals.field(registry.getClass(), "services").get(registry);
      return services.get(SERVICE);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("reading the registered services failed", e);
      return null;
    }
  }

}
