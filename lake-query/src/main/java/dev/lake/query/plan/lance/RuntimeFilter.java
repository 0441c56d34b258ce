package dev.lake.query.plan.lance;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A filter a Lance scan takes at run time: its stored column {@code column} must hold one of the keys the build side
 * of a hash join above collected into slot {@code slot} (a semi-join reduction: rows without a partner would be
 * dropped by that inner join anyway) — if the slot holds at most {@code maxKeys} keys: a long IN list costs Lance more
 * than a small scan saves.
 */
public record RuntimeFilter(int slot, String column, int maxKeys) {
  public RuntimeFilter {
    Objects.requireNonNull(column, "column");
  }

  /** The Lance filter for {@code keys}, or empty when a key cannot be written as a literal. */
  static Optional<String> lanceFilter(String column, Set<Object> keys) {
    if (keys.isEmpty()) {
      return Optional.of("FALSE");
    }
    List<Object> sorted = new ArrayList<>(keys);
    if (sorted.stream().allMatch(key -> key instanceof Number)) {
      sorted.sort(java.util.Comparator.comparingLong(key -> ((Number) key).longValue()));
    } else if (sorted.stream().allMatch(key -> key instanceof String)) {
      sorted.sort(java.util.Comparator.comparing(Object::toString));
    }
    List<String> literals = new ArrayList<>(sorted.size());
    for (Object key : sorted) {
      if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte) {
        literals.add(key.toString());
      } else if (key instanceof String) {
        literals.add(LanceLiterals.stringLiteral((String) key));
      } else {
        return Optional.empty();
      }
    }
    return Optional.of("(`" + column + "` IN (" + String.join(", ", literals) + "))");
  }
}
