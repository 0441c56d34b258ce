package dev.lake.engine;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Whether staged data can be appended to a table version as is. Staged data files number their columns in the
 * staged schema's order, and a Lance Append does not check them against the table, so the engine does: names,
 * order and types must be equal (nullability and metadata may differ), and a NOT NULL column of the table must
 * receive no nulls (the engine notes which columns held nulls while staging). Matching columns by name in any order is
 * the ingest layer's job, before staging.
 */
final class AppendSchemas {
  private AppendSchemas() {}

  /** A description of the first difference, or empty when {@code data} fits {@code table}. */
  static Optional<String> mismatch(Schema table, Schema data) {
    return mismatch("", table.getFields(), data.getFields());
  }

  private static Optional<String> mismatch(String prefix, List<Field> table, List<Field> data) {
    if (table.size() != data.size()) {
      return Optional.of(prefix + "the table has " + table.size() + " columns " + names(table) + ", the data has "
          + data.size() + " " + names(data));
    }
    for (int i = 0; i < table.size(); i++) {
      Field expected = table.get(i);
      Field actual = data.get(i);
      String path = prefix + expected.getName();
      if (!expected.getName().equals(actual.getName())) {
        return Optional.of("column " + (i + 1) + " is " + path + " in the table but " + prefix + actual.getName()
            + " in the data (same names, same order: " + names(table) + ")");
      }
      if (!expected.getType().equals(actual.getType())) {
        return Optional.of("column " + path + " has type " + SqlTypeNames.of(expected.getType()) + " in the table but "
            + SqlTypeNames.of(actual.getType()) + " in the data");
      }
      Optional<String> nested = mismatch(path + ".", expected.getChildren(), actual.getChildren());
      if (nested.isPresent()) {
        return nested;
      }
    }
    return Optional.empty();
  }

  /** A description of the NOT NULL columns of {@code schema} that are among {@code columnsWithNulls}, if any. */
  static Optional<String> nullsInRequiredColumns(Schema schema, Set<String> columnsWithNulls) {
    List<String> offending = schema.getFields().stream()
        .filter(field -> !field.isNullable() && columnsWithNulls.contains(field.getName()))
        .map(Field::getName)
        .toList();
    if (offending.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("NOT NULL column" + (offending.size() > 1 ? "s " : " ") + String.join(", ", offending)
        + (offending.size() > 1 ? " hold" : " holds") + " nulls in the data");
  }

  private static List<String> names(List<Field> fields) {
    return fields.stream().map(Field::getName).toList();
  }
}
