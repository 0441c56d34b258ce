package dev.lake.flight;

import io.grpc.netty.NettyServerBuilder;
import java.util.function.Consumer;

/**
 * What lake adds to the gRPC server under its Flight endpoint (Arrow's {@code grpc.builderConsumer} transport hint):
 * the outermost interceptor, which sees every call's final status ({@link LakeCodeTrailers}).
 */
public final class GrpcHooks {
  private GrpcHooks() {}

  public static Consumer<NettyServerBuilder> consumer() {
    return builder -> {
      builder.intercept(new LakeCodeTrailers());
    };
  }
}
