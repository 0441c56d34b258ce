package dev.lake.flight.ticket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Signer;
import dev.lake.query.model.TablePin;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes and verifies handles and tickets: JSON sealed with the cluster secret (HMAC), each kind under its own
 * signing domain. Malformed or forged bytes -> {@link InvalidTicketException}; an expired ticket ->
 * {@link ExpiredTicketException}; another user's -> {@link ForeignTicketException}. A ticket's pins name tables,
 * generations and versions in the clear; their storage locations are sealed ({@link LocationCipher}).
 */
public final class TicketCodec {
  private static final String HANDLE = "lake.handle.v1";
  private static final String TICKET = "lake.ticket.v1";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Signer signer;
  private final LocationCipher locations;
  private final Clock clock;

  public TicketCodec(Signer signer, Clock clock) {
    this.signer = signer;
    this.locations = new LocationCipher(signer);
    this.clock = clock;
  }

  public byte[] encodeHandle(StatementHandle handle) {
    ObjectNode n = JSON.createObjectNode();
    n.put("sql", handle.sql());
    n.set("params", ParameterCodec.toJson(handle.parameters()));
    if (!handle.moreRows().isEmpty()) {
      ArrayNode more = n.putArray("more");
      handle.moreRows().forEach(row -> more.add(ParameterCodec.toJson(row)));
    }
    return seal(HANDLE, n);
  }

  public StatementHandle decodeHandle(byte[] bytes) {
    JsonNode n = open(HANDLE, bytes, "prepared statement handle");
    List<List<Object>> more = new java.util.ArrayList<>();
    for (JsonNode row : n.path("more")) {
      more.add(ParameterCodec.fromJson(row));
    }
    return new StatementHandle(text(n, "sql"), ParameterCodec.fromJson(n.get("params")), more);
  }

  public byte[] encodeTicket(QueryTicket ticket) {
    ObjectNode n = JSON.createObjectNode();
    n.put("sql", ticket.sql());
    n.set("params", ParameterCodec.toJson(ticket.parameters()));
    ArrayNode pins = n.putArray("pins");
    for (Map.Entry<String, TablePin> e : ticket.pins().entrySet()) {
      TablePin p = e.getValue();
      pins.addObject().put("k", e.getKey()).put("n", p.name()).put("g", p.generation())
          .put("L", locations.seal(p.location())).put("v", p.version());
    }
    n.put("user", ticket.user());
    n.put("exp", ticket.expiresAt().toEpochMilli());
    n.put("q", ticket.queryId());
    return seal(TICKET, n);
  }

  /** Verifies signature, expiry and owner, in that order. */
  public QueryTicket decodeTicket(byte[] bytes, String caller) {
    QueryTicket ticket = decodeSigned(bytes);
    if (!clock.instant().isBefore(ticket.expiresAt())) {
      throw new ExpiredTicketException("the ticket expired at " + ticket.expiresAt() + ": run the query again");
    }
    return owned(ticket, caller);
  }

  /**
   * Verifies signature and owner but not expiry: what cancelling needs (a DoGet that started before the ticket
   * expired may still run).
   */
  public QueryTicket decodeForCancel(byte[] bytes, String caller) {
    return owned(decodeSigned(bytes), caller);
  }

  private static QueryTicket owned(QueryTicket ticket, String caller) {
    if (!ticket.user().equals(caller)) {
      throw new ForeignTicketException("this ticket was issued to another user");
    }
    return ticket;
  }

  private QueryTicket decodeSigned(byte[] bytes) {
    JsonNode n = open(TICKET, bytes, "ticket");
    QueryTicket ticket;
    try {
      Map<String, TablePin> pins = new LinkedHashMap<>();
      for (JsonNode p : n.path("pins")) {
        TablePin pin = new TablePin(text(p, "n"), text(p, "g"), locations.open(text(p, "L")),
            p.path("v").asLong());
        // keyed by the reference as written: "t" and "t@v1" in one statement are two pins
        pins.put(text(p, "k"), pin);
      }
      ticket = new QueryTicket(text(n, "sql"), ParameterCodec.fromJson(n.get("params")), pins,
          text(n, "user"), Instant.ofEpochMilli(n.path("exp").asLong()), text(n, "q"));
    } catch (IllegalArgumentException | NullPointerException | java.time.DateTimeException e) {
      throw new InvalidTicketException("malformed ticket");
    }
    return ticket;
  }

  private byte[] seal(String domain, ObjectNode n) {
    try {
      return signer.seal(domain, JSON.writeValueAsBytes(n));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private JsonNode open(String domain, byte[] bytes, String what) {
    byte[] payload = signer.open(domain, bytes)
        .orElseThrow(() -> new InvalidTicketException("the " + what + " is malformed or was not issued by this "
            + "cluster"));
    try {
      return JSON.readTree(payload);
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
}
