package dev.lake.flight.streams;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The rules for column names at ingest (docs/api.md): 1 to {@value #MAX_LENGTH} characters, no control characters
 * (U+0000-U+001F, U+007F-U+009F), unique among their siblings ignoring case, at most {@value #MAX_COLUMNS} columns
 * and {@value #MAX_DEPTH} levels of nesting. A schema that breaks one is refused with INVALID_ARGUMENT before any data
 * is written.
 */
public final class ColumnNames {
  public static final int MAX_LENGTH = 256;
  public static final int MAX_COLUMNS = 10_000;
  public static final int MAX_DEPTH = 32;

  private ColumnNames() {}

  public static void check(Schema schema) {
    int[] count = {0};
    check(schema.getFields(), 1, count);
  }

  private static void check(List<Field> fields, int depth, int[] count) {
    if (depth > MAX_DEPTH) {
      throw refused("the schema nests deeper than " + MAX_DEPTH + " levels");
    }
    Set<String> seen = new HashSet<>();
    for (Field f : fields) {
      if (++count[0] > MAX_COLUMNS) {
        throw refused("the schema has more than " + MAX_COLUMNS + " columns (nested fields included)");
      }
      String name = f.getName();
      if (name == null || name.isEmpty()) {
        throw refused("a column has an empty name");
      }
      if (name.length() > MAX_LENGTH) {
        throw refused("a column name has " + name.length() + " characters; the limit is " + MAX_LENGTH
            + " (it starts '" + name.substring(0, 32) + "...')");
      }
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
          throw refused("column name '" + printable(name) + "' holds a control character (U+"
              + String.format("%04X", (int) c) + ")");
        }
      }
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        throw refused("column name '" + name + "' appears twice (names are matched ignoring case)");
      }
      check(f.getChildren(), depth + 1, count);
    }
  }

  private static String printable(String name) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length() && i < 64; i++) {
      char c = name.charAt(i);
      b.append(c < 0x20 || (c >= 0x7f && c <= 0x9f) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return b.toString();
  }

  private static LakeException refused(String why) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, "the ingest schema was refused: " + why
        + "; nothing was written");
  }
}
