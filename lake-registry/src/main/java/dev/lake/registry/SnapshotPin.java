package dev.lake.registry;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot pin: several tables resolved at one moment, each at its registered (generation, version), held until
 * {@code expiresAt}. Readers that name the pin resolve every table at these versions; retention keeps the pinned
 * versions until the pin expires (docs/architecture.md, invariant 9). Stored in the registry so every node
 * honours it.
 *
 * @param id a random id (what clients send in the {@code x-lake-pin} header)
 * @param owner the user who created it
 * @param createdAt when the tables were resolved
 * @param expiresAt when the pin stops holding anything
 * @param tables the pinned tables, in request order, names unique
 */
public record SnapshotPin(String id, String owner, Instant createdAt, Instant expiresAt, List<Table> tables) {
  private static final ObjectMapper JSON = new ObjectMapper()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** One pinned table: its incarnation and version at the moment of the pin. */
  public record Table(String name, String generation, String location, long version) {
    public Table {
      name = TableNames.normalize(name);
      Objects.requireNonNull(generation, "generation");
      Objects.requireNonNull(location, "location");
      if (version < 1) throw new IllegalArgumentException("version must be >= 1, was " + version);
    }
  }

  public SnapshotPin {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    if (id.isBlank() || id.length() > 128) throw new IllegalArgumentException("pin id must be 1..128 characters");
    if (!expiresAt.isAfter(createdAt)) throw new IllegalArgumentException("expiresAt must be after createdAt");
    tables = List.copyOf(tables);
    if (tables.isEmpty()) throw new IllegalArgumentException("a pin names at least one table");
    if (tables.stream().map(Table::name).distinct().count() != tables.size()) {
      throw new IllegalArgumentException("a pin names each table once");
    }
  }

  /** True while the pin holds its versions. */
  public boolean liveAt(Instant now) {
    return now.isBefore(expiresAt);
  }

  /** The pinned entry of {@code name} (normalized), if the pin names it. */
  public Optional<Table> table(String name) {
    String n = TableNames.normalize(name);
    return tables.stream().filter(t -> t.name().equals(n)).findFirst();
  }

  /** The stored form (JSON), the same in every backend. */
  public String toJson() {
    ObjectNode out = JSON.createObjectNode();
    out.put("id", id).put("owner", owner).put("createdAt", createdAt.toString())
        .put("expiresAt", expiresAt.toString());
    ArrayNode list = out.putArray("tables");
    for (Table t : tables) {
      list.addObject().put("name", t.name()).put("generation", t.generation()).put("location", t.location())
          .put("version", t.version());
    }
    return out.toString();
  }

  /**
   * Reads {@link #toJson()}'s form.
   *
   * @throws RegistryUnavailableException when the stored item is not a readable pin
   */
  public static SnapshotPin fromJson(String json) {
    try {
      JsonNode n = JSON.readTree(json);
      List<Table> tables = new ArrayList<>();
      for (JsonNode t : n.path("tables")) {
        tables.add(new Table(t.path("name").asText(), t.path("generation").asText(), t.path("location").asText(),
            t.path("version").asLong()));
      }
      return new SnapshotPin(n.path("id").asText(), n.path("owner").asText(),
          Instant.parse(n.path("createdAt").asText()), Instant.parse(n.path("expiresAt").asText()), tables);
    } catch (IOException | RuntimeException e) {
      throw new RegistryUnavailableException("a stored snapshot pin is not readable (" + e.getMessage() + "); "
          + "remove it or restore the registry from a backup", e);
    }
  }
}
