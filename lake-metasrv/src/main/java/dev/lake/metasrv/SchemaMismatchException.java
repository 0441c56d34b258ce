package dev.lake.metasrv;

/** Appended data does not match the table's columns or types. Maps to INVALID_ARGUMENT. */
public class SchemaMismatchException extends RuntimeException {
  public SchemaMismatchException(String message) {
    super(message);
  }
}
