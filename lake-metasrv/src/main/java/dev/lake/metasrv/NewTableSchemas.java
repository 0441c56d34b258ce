package dev.lake.metasrv;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** What a created or replaced table's schema may hold: unique column names and the column types lake serves. */
final class NewTableSchemas {
  private NewTableSchemas() {}

  static void validate(String table, Schema schema) {
    List<String> problems = new ArrayList<>();
    if (schema.getFields().isEmpty()) {
      problems.add("the data has no columns");
    }
    Set<String> seen = new HashSet<>();
    for (Field f : schema.getFields()) {
      String name = f.getName();
      if (name == null || name.isBlank()) {
        problems.add("a column has no name");
        continue;
      }
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        problems.add("column '" + name + "' appears twice (names are case-insensitive)");
      }
      if (!supported(f.getType())) {
        problems.add("column '" + name + "' has type " + f.getType() + ", which lake does not store");
      }
    }
    if (!problems.isEmpty()) {
      throw new SchemaMismatchException("cannot create table '" + table + "': " + String.join("; ", problems));
    }
  }

  private static boolean supported(ArrowType type) {
    return switch (type.getTypeID()) {
      case Int, FloatingPoint, Decimal, Utf8, LargeUtf8, Bool, Date, Time, Timestamp, Binary, LargeBinary,
          FixedSizeBinary -> true;
      default -> false;
    };
  }
}
