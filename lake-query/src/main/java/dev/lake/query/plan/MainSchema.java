package dev.lake.query.plan;

import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.model.TableReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;

/**
 * The schema {@code lake.main} for one statement. Tables are looked up by reference ({@code t}, {@code t@v42} or
 * the rewritten {@code t@<instant>} of FOR SYSTEM_TIME AS OF), one look-up per reference and statement (memoized),
 * case-insensitively; the schema never lists the catalog. It remembers which references were missing or not table
 * references at all, and the first failure of the resolver, so the planner can report the right error after
 * Calcite's validator has turned a missing table into a generic validation error. Once the statement is validated
 * the schema is {@link #seal() sealed}: it lets go of its resolver (which may hold an execution's resources).
 */
final class MainSchema extends AbstractSchema {
  private static final TableResolver SEALED = reference -> {
    throw new IllegalStateException("the statement was validated; table '" + reference + "' cannot be looked up now");
  };

  private TableResolver resolver;
  private final Map<String, Optional<LanceTable>> resolved = new LinkedHashMap<>();
  private final Map<String, TableReference> references = new LinkedHashMap<>();
  private final Map<String, TableReference> missing = new LinkedHashMap<>();
  private final Set<String> invalid = new LinkedHashSet<>();
  private RuntimeException failure;

  MainSchema(TableResolver resolver) {
    this.resolver = resolver;
  }

  /** The tables this statement resolved, by reference key. */
  Map<String, LanceTable> resolvedTables() {
    Map<String, LanceTable> tables = new HashMap<>();
    resolved.forEach((key, table) -> table.ifPresent(t -> tables.put(key, t)));
    return tables;
  }

  /** Every reference looked up, found or not, in look-up order. */
  List<TableReference> references() {
    return new ArrayList<>(references.values());
  }

  /** References that named no table, by key. */
  Map<String, TableReference> missing() {
    return missing;
  }

  Set<String> invalid() {
    return invalid;
  }

  /** The first exception the resolver threw (e.g. the registry is unavailable), if any. */
  Optional<RuntimeException> failure() {
    return Optional.ofNullable(failure);
  }

  void seal() {
    resolver = SEALED;
  }

  private LanceTable lookup(String written) {
    Optional<TableReference> parsed = TableReference.parse(written);
    if (parsed.isEmpty()) {
      invalid.add(written);
      return null;
    }
    TableReference reference = parsed.get();
    String key = reference.key();
    Optional<LanceTable> table = resolved.get(key);
    if (table == null) {
      references.put(key, reference);
      try {
        table = resolver.resolve(reference);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        }
        throw e;
      }
      resolved.put(key, table);
      if (table.isEmpty()) {
        missing.put(key, reference);
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
        return table == null ? null : new Named<>(table.reference().key(), table);
      }

      @Override
      public Set<String> getNames(LikePattern pattern) {
        Set<String> names = new LinkedHashSet<>();
        resolved.forEach((key, table) -> {
          if (table.isPresent() && pattern.matcher().apply(key)) {
            names.add(key);
          }
        });
        return names;
      }
    };
  }
}
