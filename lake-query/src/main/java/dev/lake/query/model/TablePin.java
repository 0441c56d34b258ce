package dev.lake.query.model;

import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import java.util.Objects;

/** The exact registered version a statement reads, fixed when the statement is executed. */
public record TablePin(String name, String generation, String location, long version) {
  public TablePin {
    name = TableNames.normalize(name);
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(location, "location");
    if (version < 1) throw new IllegalArgumentException("version must be >= 1, was " + version);
  }

  public static TablePin of(TableRegistration registration) {
    return new TablePin(registration.name(), registration.generation(), registration.location(),
        registration.version());
  }
}
