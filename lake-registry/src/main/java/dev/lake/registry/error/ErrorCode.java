package dev.lake.registry.error;

/**
 * The status a client receives for a failure: the codes of docs/api.md's status table. Names equal gRPC's codes,
 * so the Flight layer maps one to the other by name and nothing else.
 */
public enum ErrorCode {
  INVALID_ARGUMENT,
  NOT_FOUND,
  ALREADY_EXISTS,
  UNIMPLEMENTED,
  UNAUTHENTICATED,
  PERMISSION_DENIED,
  FAILED_PRECONDITION,
  UNAVAILABLE,
  ABORTED,
  UNKNOWN,
  RESOURCE_EXHAUSTED,
  DEADLINE_EXCEEDED,
  CANCELLED,
  /** A bug in lake: the client gets an error id, the server log the details. */
  INTERNAL
}
