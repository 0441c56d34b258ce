package dev.lake.query.plan;

import dev.lake.registry.TableNames;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;

/**
 * The schema {@code lake.main} for one statement. Tables are looked up by name, one point look-up per name and
 * statement (memoized), case-insensitively; the schema never lists the catalog. It remembers which names were
 * missing or not table names at all, and the first failure of the resolver, so the planner can report the right
 * error after Calcite's validator has turned a missing table into a generic validation error.
 */
final class MainSchema extends AbstractSchema {
  private final TableResolver resolver;
  private final Map<String, Optional<LanceTable>> resolved = new HashMap<>();
  private final Set<String> missing = new LinkedHashSet<>();
  private final Set<String> invalid = new LinkedHashSet<>();
  private RuntimeException failure;

  MainSchema(TableResolver resolver) {
    this.resolver = resolver;
  }

  /** The tables this statement resolved, by lower-case name. */
  Map<String, LanceTable> resolvedTables() {
    Map<String, LanceTable> tables = new HashMap<>();
    resolved.forEach((name, table) -> table.ifPresent(t -> tables.put(name, t)));
    return tables;
  }

  Set<String> missing() {
    return missing;
  }

  Set<String> invalid() {
    return invalid;
  }

  /** The first exception the resolver threw (e.g. the registry is unavailable), if any. */
  Optional<RuntimeException> failure() {
    return Optional.ofNullable(failure);
  }

  private LanceTable lookup(String rawName) {
    if (!TableNames.isValid(rawName)) {
      invalid.add(rawName);
      return null;
    }
    String name = rawName.toLowerCase(Locale.ROOT);
    Optional<LanceTable> table = resolved.get(name);
    if (table == null) {
      try {
        table = resolver.resolve(name);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        }
        throw e;
      }
      resolved.put(name, table);
      if (table.isEmpty()) {
        missing.add(name);
      }
    }
    return table.orElse(null);
  }

  @Override
  public Lookup<Table> tables() {
    return new Lookup<>() {
      @Override
      public Table get(String name) {
        return lookup(name);
      }

      @Override
      public Named<Table> getIgnoreCase(String name) {
        LanceTable table = lookup(name);
        return table == null ? null : new Named<>(table.name(), table);
      }

      @Override
      public Set<String> getNames(LikePattern pattern) {
        Set<String> names = new LinkedHashSet<>();
        resolved.forEach((name, table) -> {
          if (table.isPresent() && pattern.matcher().apply(name)) {
            names.add(name);
          }
        });
        return names;
      }
    };
  }
}
