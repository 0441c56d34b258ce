package dev.lake.registry;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Values for registry tests: registrations, keys and tombstones with readable defaults. */
public final class RegistryFixtures {
  public static final Instant T0 = Instant.parse("2026-01-01T00:00:00.123456Z");
  public static final String SCHEMA = "{\"fields\":[{\"name\":\"id\",\"type\":\"int64\"}]}";

  private RegistryFixtures() {}

  public static String newGeneration() {
    return UUID.randomUUID().toString();
  }

  /** Version 1 of a fresh incarnation of {@code name}, written at term {@code term}. */
  public static TableRegistration firstVersion(String name, long term) {
    String generation = newGeneration();
    return new TableRegistration(name, generation, "file:///lake-data/" + name.toLowerCase() + "/" + generation
        + "/", 1, SCHEMA, term, T0, T0);
  }

  /** The next version of {@code current}, registered one second after it. */
  public static TableRegistration nextVersion(TableRegistration current, long term) {
    return current.withVersion(current.version() + 1, current.schema(), term, current.updatedAt().plusSeconds(1));
  }

  public static Optional<IdempotencyRecord> key(TableRegistration registration, String key, long rowCount) {
    return Optional.of(new IdempotencyRecord(registration.name(), registration.generation(), key,
        registration.version(), rowCount, registration.updatedAt()));
  }

  public static Tombstone tombstone(TableRegistration registration) {
    return new Tombstone(registration.name(), registration.generation(), registration.location(),
        registration.updatedAt().plusSeconds(1));
  }

  public static VersionRecord historyItem(TableRegistration registration) {
    return new VersionRecord(registration.name(), registration.generation(), registration.version(),
        registration.updatedAt());
  }
}
