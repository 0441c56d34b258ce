package dev.lake.flight.streams;

import java.lang.reflect.Field;

/**
 * Reflective access to gRPC's server builder internals, for the hooks that must reach what gRPC does not expose (the
 * registered Flight service, the interceptor list). Callers fall back with a warning when a field is gone.
 */
public final class GrpcInternals {
  private GrpcInternals() {}

  /** The field {@code name} declared by {@code type} or a superclass, made accessible. */
  public static Field field(Class<?> type, String name) throws NoSuchFieldException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
      } catch (NoSuchFieldException next) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(name);
  }
}
