package dev.lake.flight.ticket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Signer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * The signed client state of heavy results (PollFlightInfo): the descriptor a client polls a job with, and the
 * ticket of one spooled part (the gRPC fallback of a presigned URL). Both name the job, the user and an expiry, are
 * sealed with the cluster secret (any node accepts them; the job's state lives beside its results), and carry a
 * prefix of their own so they are told apart from Flight SQL's protobuf commands and tickets at a glance.
 */
public final class SpoolTokens {
  private static final String JOB = "lake.poll.v1";
  private static final String PART = "lake.spool.v1";
  private static final byte[] JOB_PREFIX = "lake-poll:".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PART_PREFIX = "lake-spool:".getBytes(StandardCharsets.US_ASCII);
  private static final Pattern JOB_ID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Signer signer;
  private final Clock clock;

  public SpoolTokens(Signer signer, Clock clock) {
    this.signer = signer;
    this.clock = clock;
  }

  /** A poll job as its descriptor names it. */
  public record Job(String jobId, String user, Instant expiresAt) {}

  /** One spooled part as its ticket names it. */
  public record Part(String jobId, int part, String user, Instant expiresAt) {}

  public static boolean isJob(byte[] bytes) {
    return startsWith(bytes, JOB_PREFIX);
  }

  public static boolean isPart(byte[] bytes) {
    return startsWith(bytes, PART_PREFIX);
  }

  public byte[] encodeJob(Job job) {
    ObjectNode n = JSON.createObjectNode().put("j", job.jobId()).put("u", job.user())
        .put("exp", job.expiresAt().toEpochMilli());
    return prefixed(JOB_PREFIX, seal(JOB, n));
  }

  public byte[] encodePart(Part part) {
    ObjectNode n = JSON.createObjectNode().put("j", part.jobId()).put("p", part.part()).put("u", part.user())
        .put("exp", part.expiresAt().toEpochMilli());
    return prefixed(PART_PREFIX, seal(PART, n));
  }

  /** Signature, then owner (another user's job: PERMISSION_DENIED), then expiry. */
  public Job decodeJob(byte[] bytes, String caller) {
    JsonNode n = open(JOB, bytes, JOB_PREFIX, "poll descriptor");
    Job job = new Job(jobId(n), text(n, "u"), Instant.ofEpochMilli(n.path("exp").asLong()));
    owned(job.user(), caller, "poll job");
    if (!clock.instant().isBefore(job.expiresAt())) {
      throw new ExpiredTicketException("the poll job expired at " + job.expiresAt() + " and its result was deleted: "
          + "run the query again");
    }
    return job;
  }

  /** Signature and owner, not expiry (cancelling a job that outlived its descriptor is harmless). */
  public Job decodeJobForCancel(byte[] bytes, String caller) {
    JsonNode n = open(JOB, bytes, JOB_PREFIX, "poll descriptor");
    Job job = new Job(jobId(n), text(n, "u"), Instant.ofEpochMilli(n.path("exp").asLong()));
    owned(job.user(), caller, "poll job");
    return job;
  }

  public Part decodePart(byte[] bytes, String caller) {
    JsonNode n = open(PART, bytes, PART_PREFIX, "ticket");
    int part = n.path("p").asInt(-1);
    if (part < 0) {
      throw new InvalidTicketException("malformed ticket");
    }
    Part decoded = new Part(jobId(n), part, text(n, "u"), Instant.ofEpochMilli(n.path("exp").asLong()));
    if (!clock.instant().isBefore(decoded.expiresAt())) {
      throw new ExpiredTicketException("the spooled result expired at " + decoded.expiresAt() + " and was deleted: "
          + "run the query again");
    }
    owned(decoded.user(), caller, "ticket");
    return decoded;
  }

  private static void owned(String owner, String caller, String what) {
    if (!owner.equals(caller)) {
      throw new ForeignTicketException("this " + what + " was issued to another user");
    }
  }

  private static String jobId(JsonNode n) {
    String id = text(n, "j");
    if (!JOB_ID.matcher(id).matches()) {
      throw new InvalidTicketException("malformed ticket");
    }
    return id;
  }

  private byte[] seal(String domain, ObjectNode n) {
    try {
      return signer.seal(domain, JSON.writeValueAsBytes(n));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private JsonNode open(String domain, byte[] bytes, byte[] prefix, String what) {
    if (!startsWith(bytes, prefix)) {
      throw new InvalidTicketException("the " + what + " is malformed");
    }
    byte[] sealed = Arrays.copyOfRange(bytes, prefix.length, bytes.length);
    byte[] payload = signer.open(domain, sealed).orElseThrow(() -> new InvalidTicketException("the " + what
        + " is malformed or was not issued by this cluster"));
    try {
      JsonNode n = JSON.readTree(payload);
      if (n == null || !n.isObject()) {
        throw new InvalidTicketException("the " + what + " is malformed");
      }
      return n;
    } catch (IOException e) {
      throw new InvalidTicketException("the " + what + " is malformed");
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new InvalidTicketException("malformed ticket: missing " + field);
    }
    return v.asText();
  }

  private static byte[] prefixed(byte[] prefix, byte[] body) {
    byte[] out = Arrays.copyOf(prefix, prefix.length + body.length);
    System.arraycopy(body, 0, out, prefix.length, body.length);
    return out;
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    if (bytes == null || bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
