package dev.lake.registry;

/** No registration under that name (or no retained version as asked). Never thrown for a backend error. */
public class TableNotFoundException extends RuntimeException {
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
