package dev.lake.registry;

import dev.lake.registry.error.ErrorCode;

/** Create-if-absent found a registration under that name; nothing was written. */
public class TableExistsException extends RegistryConflictException {
  @Override
  public ErrorCode errorCode() {
    return ErrorCode.ALREADY_EXISTS;
  }

  private final String table;

  public TableExistsException(String table) {
    super("table '" + table + "' already exists");
    this.table = table;
  }

  public String table() {
    return table;
  }
}
