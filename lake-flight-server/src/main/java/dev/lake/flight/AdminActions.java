package dev.lake.flight;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.auth.Role;
import dev.lake.metasrv.WriteCoordinator;
import dev.lake.query.Catalog;
import dev.lake.registry.TableRegistration;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.StreamListener;
import org.apache.arrow.flight.Result;

/**
 * lake's admin actions (Flight DoAction, UTF-8 JSON bodies, documented in docs/api.md). Each returns one JSON
 * result.
 */
final class AdminActions {
  static final String DROP_TABLE = "lake.drop_table";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final WriteCoordinator writes;
  private final Catalog catalog;

  AdminActions(WriteCoordinator writes, Catalog catalog) {
    this.writes = writes;
    this.catalog = catalog;
  }

  boolean handles(String type) {
    return type != null && type.startsWith("lake.");
  }

  List<ActionType> types() {
    return List.of(new ActionType(DROP_TABLE, "Drop a table: {\"table\": \"name\"} -> {\"table\", \"generation\", "
        + "\"version\"} (admin)"));
  }

  void run(Identity caller, Action action, StreamListener<Result> listener) throws IOException {
    switch (action.getType()) {
      case DROP_TABLE -> {
        requireRole(caller, Role.ADMIN, "drop tables");
        String table = text(body(action), "table");
        TableRegistration dropped = writes.drop(table);
        catalog.dropped(dropped.name(), dropped.generation());
        ObjectNode out = JSON.createObjectNode();
        out.put("table", dropped.name()).put("generation", dropped.generation()).put("version", dropped.version());
        listener.onNext(new Result(JSON.writeValueAsBytes(out)));
        listener.onCompleted();
      }
      default -> throw new UnsupportedOperationException("unknown action '" + truncate(action.getType())
          + "'; ListActions names the ones lake has");
    }
  }

  private static void requireRole(Identity caller, Role needed, String what) {
    if (!caller.role().allows(needed)) {
      throw CallStatus.UNAUTHORIZED.withDescription("user '" + caller.user() + "' may not " + what
          + ": it needs role " + needed.name().toLowerCase()).toRuntimeException();
    }
  }

  private static JsonNode body(Action action) {
    try {
      JsonNode node = JSON.readTree(action.getBody());
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException("the body of " + action.getType() + " must be a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw new IllegalArgumentException("the body of " + action.getType() + " is not valid JSON");
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("the request needs a string field \"" + field + "\"");
    }
    return v.asText();
  }

  private static String truncate(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
  }
}
