package dev.lake.registry;

import dev.lake.registry.error.CodedFailure;
import dev.lake.registry.error.ErrorCode;

/** No registration under that name (or no retained version as asked). Never thrown for a backend error. */
public class TableNotFoundException extends RuntimeException implements CodedFailure {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.NOT_FOUND;
  }

  private final String table;

  public TableNotFoundException(String table) {
    this(table, "table '" + table + "' does not exist in lake.main");
  }

  public TableNotFoundException(String table, String message) {
    super(message);
    this.table = table;
  }

  public String table() {
    return table;
  }
}
