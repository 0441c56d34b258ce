package dev.lake.flight.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.registry.TableRegistration;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The leader's answer to a forwarded ingest (the internal endpoint's DoPut result, as JSON): the acknowledged row
 * count, whether it replayed an earlier ingest with the same idempotency key, and the registration it produced,
 * which the follower hands to its own catalog (read-your-writes on the node the client used).
 */
public record ForwardedWrite(long rows, boolean replayed, Optional<TableRegistration> registration) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public ForwardedWrite {
    Objects.requireNonNull(registration, "registration");
  }

  public byte[] toJson() {
    ObjectNode out = JSON.createObjectNode();
    out.put("rows", rows).put("replayed", replayed);
    registration.ifPresent(r -> out.putObject("registration").put("name", r.name())
        .put("generation", r.generation()).put("location", r.location()).put("version", r.version())
        .put("schema", r.schema()).put("term", r.term()).put("created_at", r.createdAt().toString())
        .put("updated_at", r.updatedAt().toString()));
    try {
      return JSON.writeValueAsBytes(out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Parses the leader's answer; a malformed one is an {@link IllegalStateException} (a version mismatch, a bug). */
  public static ForwardedWrite fromJson(byte[] bytes) {
    try {
      JsonNode in = JSON.readTree(bytes);
      if (in == null || !in.has("rows")) {
        throw new IllegalStateException("the leader's ingest answer has no row count");
      }
      JsonNode r = in.get("registration");
      Optional<TableRegistration> registration = r == null || r.isNull() ? Optional.empty()
          : Optional.of(new TableRegistration(r.get("name").asText(), r.get("generation").asText(),
              r.get("location").asText(), r.get("version").asLong(), r.get("schema").asText(),
              r.get("term").asLong(), Instant.parse(r.get("created_at").asText()),
              Instant.parse(r.get("updated_at").asText())));
      return new ForwardedWrite(in.get("rows").asLong(), in.path("replayed").asBoolean(false), registration);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("the leader's ingest answer is malformed: " + e.getMessage(), e);
    }
  }
}
