/**
 * gRPC plumbing shared by the Flight SQL endpoint and the cluster's internal endpoint: the one mapping from lake's
 * typed failures to a status ({@link dev.lake.flight.grpc.StatusMapper}), the {@code lake-code} trailer
 * ({@link dev.lake.flight.grpc.LakeCodeTrailers}) and the server builder hooks that install it
 * ({@link dev.lake.flight.grpc.GrpcHooks}). It imports no other package of this module but the stream guards.
 */
package dev.lake.flight.grpc;
