package dev.lake.query.guard;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * The statement was stopped while it worked: its timeout passed (DEADLINE_EXCEEDED), its client cancelled it
 * (CANCELLED), or the node needed its memory (RESOURCE_EXHAUSTED). Thrown where the work polled its
 * {@link QueryGuard}; the client was usually answered already by whoever stopped it.
 */
public final class QueryStoppedException extends RuntimeException implements CodedFailure {
  private final ErrorCode code;

  public QueryStoppedException(ErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  @Override
  public ErrorCode errorCode() {
    return code;
  }
}
