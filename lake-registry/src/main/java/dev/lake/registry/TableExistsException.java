package dev.lake.registry;

/** Create-if-absent found a registration under that name; nothing was written. */
public class TableExistsException extends RegistryConflictException {
  private final String table;

  public TableExistsException(String table) {
    super("table '" + table + "' already exists");
    this.table = table;
  }

  public String table() {
    return table;
  }
}
