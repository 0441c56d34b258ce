/**
 * lake's error model: {@link dev.lake.registry.error.ErrorCode} (the client-visible status) and
 * {@link dev.lake.registry.error.CodedFailure} (an exception that states it). Every layer's typed exceptions
 * implement it; the Flight layer translates codes to gRPC statuses in one place. Lives in lake-registry because
 * every other module imports it; it imports nothing.
 */
package dev.lake.registry.error;
