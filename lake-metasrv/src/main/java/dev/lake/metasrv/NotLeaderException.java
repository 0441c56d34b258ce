package dev.lake.metasrv;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** This node may not write now (not the lease holder, or its lease deadline passed). Maps to UNAVAILABLE. */
public class NotLeaderException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.UNAVAILABLE;
  }

  public NotLeaderException(String message) {
    super(message);
  }
}
