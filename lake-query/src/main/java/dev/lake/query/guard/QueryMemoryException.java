package dev.lake.query.guard;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * A statement needs more memory than its budget ({@code query.memory-limit}) or the node's
 * ({@code query.node-memory-limit}) leaves: it is refused before the heap runs out. Maps to RESOURCE_EXHAUSTED.
 */
public final class QueryMemoryException extends RuntimeException implements CodedFailure {
  public QueryMemoryException(String message) {
    super(message);
  }

  @Override
  public ErrorCode errorCode() {
    return ErrorCode.RESOURCE_EXHAUSTED;
  }
}
