package dev.lake.flight.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.values.ConfigValues;
import dev.lake.registry.SnapshotPin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Flight side of the namespace (docs/api.md): {@code lake.resolve_table} ({@code {"table", "version"?,
 * "pin"?}} -> generation, version, location, manifest path, storage options, columns) and {@code lake.pin_snapshot}
 * ({@code {"tables": [...], "ttl": "2h"}} -> a pin id and the pinned versions). The same {@link TableResolver}
 * answers the REST endpoint. Any role may call them.
 */
public final class NamespaceActions {
  public static final String RESOLVE_TABLE = "lake.resolve_table";
  public static final String PIN_SNAPSHOT = "lake.pin_snapshot";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableResolver resolver;

  public NamespaceActions(TableResolver resolver) {
    this.resolver = resolver;
  }

  public boolean handles(String type) {
    return RESOLVE_TABLE.equals(type) || PIN_SNAPSHOT.equals(type);
  }

  /** The action names and their one-line descriptions, for ListActions. */
  public static Map<String, String> descriptions() {
    return Map.of(
        RESOLVE_TABLE, "Resolve a table for an external reader: {\"table\", \"version\"?, \"pin\"?} -> generation, "
            + "version, location, manifest path, storage options, columns",
        PIN_SNAPSHOT, "Pin several tables at one moment: {\"tables\": [...], \"ttl\": \"2h\"} -> pin id and versions");
  }

  /**
   * Runs one action.
   *
   * @throws NamespaceException (a coded failure) for a bad request, an unknown table or version, or too many pins
   */
  public ObjectNode execute(Identity caller, String type, byte[] body) {
    JsonNode request = body(type, body);
    return switch (type) {
      case RESOLVE_TABLE -> resolve(request);
      case PIN_SNAPSHOT -> pin(caller, request);
      default -> throw NamespaceException.invalid("unknown namespace action");
    };
  }

  private ObjectNode resolve(JsonNode request) {
    String table = text(request, "table");
    Optional<Long> version = Optional.empty();
    JsonNode v = request.get("version");
    if (v != null && !v.isNull()) {
      if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 1) {
        throw NamespaceException.invalid("\"version\" must be a positive integer");
      }
      version = Optional.of(v.asLong());
    }
    JsonNode pin = request.get("pin");
    Optional<String> pinId = pin == null || pin.isNull() ? Optional.empty() : Optional.of(textValue(pin, "pin"));
    ResolvedTable t = resolver.resolve(table, version, pinId);
    ObjectNode out = JSON.createObjectNode();
    out.put("table", t.name()).put("generation", t.generation()).put("version", t.version())
        .put("location", t.location()).put("manifest_path", t.manifestPath())
        .put("registered_at", t.registeredAt().toString());
    ObjectNode options = out.putObject("storage_options");
    t.storageOptions().entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(e -> options.put(e.getKey(), e.getValue()));
    t.expiresAt().ifPresent(at -> out.put("expires_at_millis", at.toEpochMilli()));
    t.pin().ifPresent(p -> out.put("pin", p));
    ArrayNode columns = out.putArray("columns");
    for (Field f : dev.lake.engine.RegisteredSchema.of(t.name(), t.generation(), t.version(), t.schema())
        .getFields()) {
      columns.addObject().put("name", f.getName()).put("type", f.getType().toString())
          .put("nullable", f.isNullable());
    }
    return out;
  }

  private ObjectNode pin(Identity caller, JsonNode request) {
    JsonNode tables = request.get("tables");
    if (tables == null || !tables.isArray()) {
      throw NamespaceException.invalid("the request needs an array field \"tables\" of table names");
    }
    List<String> names = new ArrayList<>();
    for (JsonNode t : tables) {
      names.add(textValue(t, "tables[]"));
    }
    Duration ttl;
    try {
      ttl = ConfigValues.duration("ttl", text(request, "ttl"));
    } catch (IllegalArgumentException e) {
      throw NamespaceException.invalid("\"ttl\" is not a duration (e.g. 30m, 2h): " + e.getMessage());
    }
    SnapshotPin pin = resolver.pin(caller.user(), names, ttl);
    ObjectNode out = JSON.createObjectNode();
    out.put("pin", pin.id()).put("created_at", pin.createdAt().toString())
        .put("expires_at", pin.expiresAt().toString()).put("header", NamespaceApi.PIN_HEADER);
    ArrayNode list = out.putArray("tables");
    for (SnapshotPin.Table t : pin.tables()) {
      list.addObject().put("table", t.name()).put("generation", t.generation()).put("version", t.version());
    }
    return out;
  }

  private static JsonNode body(String type, byte[] body) {
    try {
      JsonNode node = JSON.readTree(body == null ? new byte[0] : body);
      if (node == null || !node.isObject()) {
        throw NamespaceException.invalid("the body of " + type + " must be a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw NamespaceException.invalid("the body of " + type + " is not valid JSON");
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      throw NamespaceException.invalid("the request needs a string field \"" + field + "\"");
    }
    return textValue(v, field);
  }

  private static String textValue(JsonNode v, String field) {
    if (!v.isTextual()) {
      throw NamespaceException.invalid("\"" + field + "\" must be a string");
    }
    return v.asText();
  }
}
