package dev.lake.flight.spool;

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
 * A poll job's state, stored as {@code <job>/state.json} beside its spooled parts so that any node can answer a
 * poll for it (docs/design.md, Topology). Written by the node running the job: when it starts, as parts complete, at
 * every heartbeat, and when it ends.
 *
 * @param jobId the job's id (a UUID; the directory of its objects)
 * @param user who started it (polls and part tickets are bound to this user)
 * @param node the node running it
 * @param status running, done, failed or cancelled
 * @param schemaJson the result schema (Arrow JSON)
 * @param createdAt when the job started
 * @param updatedAt the running node's last heartbeat
 * @param expiresAt when the job's objects are deleted
 * @param parts the spooled parts, in order (complete ones only)
 * @param rows rows spooled so far
 * @param errorCode for a failed job: the status code (docs/design.md's table)
 * @param errorMessage for a failed job: what happened
 */
record PollState(String jobId, String user, String node, Status status, String schemaJson, Instant createdAt,
    Instant updatedAt, Instant expiresAt, List<Part> parts, long rows, Optional<String> errorCode,
    Optional<String> errorMessage) {
  private static final ObjectMapper JSON = new ObjectMapper();

  enum Status { RUNNING, DONE, FAILED, CANCELLED }

  /** One spooled object: its key (relative to the results prefix), rows and bytes. */
  record Part(String key, long rows, long bytes) {}

  PollState {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(status, "status");
    parts = List.copyOf(parts);
  }

  PollState with(Status newStatus, Instant now, Instant newExpiry, List<Part> newParts, long newRows,
      Optional<String> code, Optional<String> message) {
    return new PollState(jobId, user, node, newStatus, schemaJson, createdAt, now, newExpiry, newParts, newRows, code,
        message);
  }

  PollState heartbeat(Instant now) {
    return new PollState(jobId, user, node, status, schemaJson, createdAt, now, expiresAt, parts, rows, errorCode,
        errorMessage);
  }

  byte[] toJson() {
    ObjectNode n = JSON.createObjectNode();
    n.put("job", jobId).put("user", user).put("node", node).put("status", status.name())
        .put("schema", schemaJson).put("created_at", createdAt.toString()).put("updated_at", updatedAt.toString())
        .put("expires_at", expiresAt.toString()).put("rows", rows);
    ArrayNode ps = n.putArray("parts");
    for (Part p : parts) {
      ps.addObject().put("key", p.key()).put("rows", p.rows()).put("bytes", p.bytes());
    }
    errorCode.ifPresent(c -> n.put("error_code", c));
    errorMessage.ifPresent(m -> n.put("error_message", m));
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(n);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static PollState fromJson(byte[] bytes) throws IOException {
    JsonNode n = JSON.readTree(bytes);
    try {
      List<Part> parts = new ArrayList<>();
      for (JsonNode p : n.path("parts")) {
        parts.add(new Part(p.path("key").asText(), p.path("rows").asLong(), p.path("bytes").asLong()));
      }
      return new PollState(n.path("job").asText(), n.path("user").asText(), n.path("node").asText(),
          Status.valueOf(n.path("status").asText()), n.path("schema").asText(),
          Instant.parse(n.path("created_at").asText()), Instant.parse(n.path("updated_at").asText()),
          Instant.parse(n.path("expires_at").asText()), parts, n.path("rows").asLong(),
          Optional.ofNullable(n.get("error_code")).map(JsonNode::asText),
          Optional.ofNullable(n.get("error_message")).map(JsonNode::asText));
    } catch (RuntimeException e) {
      throw new IOException("unreadable poll state: " + e.getMessage(), e);
    }
  }
}
