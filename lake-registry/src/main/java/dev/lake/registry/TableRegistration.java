package dev.lake.registry;

import java.time.Instant;
import java.util.Objects;

/**
 * The registered, current state of one table: which incarnation ({@code generation}, at {@code location}) and
 * which Lance version of it every read must open.
 *
 * @param name lower-case table name
 * @param generation a fresh random id per incarnation; a path segment of {@code location}
 * @param location the incarnation's dataset URI, {@code <data-root>/<name>/<generation>/}
 * @param version the registered Lance version (>= 1)
 * @param schema the table's Arrow schema as JSON (stored once per version; opaque to the registry)
 * @param term the lease term of the leader that last wrote this registration
 * @param createdAt when this incarnation was created
 * @param updatedAt when this version was registered
 */
public record TableRegistration(
    String name,
    String generation,
    String location,
    long version,
    String schema,
    long term,
    Instant createdAt,
    Instant updatedAt) {

  public TableRegistration {
    name = TableNames.normalize(name);
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    if (generation.isBlank()) throw new IllegalArgumentException("generation is blank");
    if (version < 1) throw new IllegalArgumentException("version must be >= 1, was " + version);
    if (term < 0) throw new IllegalArgumentException("term must be >= 0, was " + term);
  }

  /** The registration of a new version of the same incarnation. */
  public TableRegistration withVersion(long newVersion, String newSchema, long newTerm, Instant at) {
    return new TableRegistration(name, generation, location, newVersion, newSchema, newTerm, createdAt, at);
  }

  /** True when {@code other} names the same incarnation at the same version (what a CAS compares). */
  public boolean sameSnapshot(TableRegistration other) {
    return other != null && generation.equals(other.generation) && version == other.version;
  }
}
