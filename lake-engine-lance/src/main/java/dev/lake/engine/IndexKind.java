package dev.lake.engine;

import java.util.Locale;
import java.util.Optional;

/** The scalar index kinds lake builds (Lance's BTREE and BITMAP). */
public enum IndexKind {
  /** Sorted pages of values: equality, ranges and IN on high-cardinality columns (keys). */
  BTREE,
  /** One bitmap of row ids per distinct value: equality and IN on low-cardinality columns. */
  BITMAP;

  /** The kind named {@code text} (any case), or empty. */
  public static Optional<IndexKind> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    for (IndexKind k : values()) {
      if (k.name().equals(text.strip().toUpperCase(Locale.ROOT))) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
