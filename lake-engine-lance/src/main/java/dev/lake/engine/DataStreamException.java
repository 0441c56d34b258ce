package dev.lake.engine;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/**
 * Reading the caller's input stream failed while staging (the producer threw, the client went away). Nothing was
 * committed; partially written data files are orphans for the sweep. The producer's own exception is the cause
 * when the engine could capture it.
 */
public class DataStreamException extends EngineException {
  /** The producer's own status when it stated one (a malformed batch, an idle client), else INVALID_ARGUMENT. */
  @Override
  public ErrorCode errorCode() {
    return getCause() instanceof CodedFailure coded ? coded.errorCode() : ErrorCode.INVALID_ARGUMENT;
  }

  public DataStreamException(String message, Throwable cause) {
    super(message, cause);
  }
}
