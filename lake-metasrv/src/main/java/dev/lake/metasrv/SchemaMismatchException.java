package dev.lake.metasrv;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** Appended data does not match the table's columns or types. Maps to INVALID_ARGUMENT. */
public class SchemaMismatchException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.INVALID_ARGUMENT;
  }

  public SchemaMismatchException(String message) {
    super(message);
  }
}
