package dev.lake.registry.dynamodb;

import dev.lake.registry.SnapshotPin;
import dev.lake.registry.IdempotencyRecord;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.NodeInfo;
import dev.lake.registry.RegistryUnavailableException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.Tombstone;
import dev.lake.registry.VersionRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The item layout in the one table (string keys {@code pk}, {@code sk}), and the mapping of each record to its
 * item. Instants are ISO-8601 strings (lossless). Every item a mutation writes carries {@code txn}, the
 * mutation's client request token, so that a retried mutation can recognise its own earlier write.
 *
 * <pre>
 *   pk = TABLES                     sk = {name}                 registration (listing = one Query)
 *   pk = G#{name}#{generation}      sk = V#{%020d version}      history item
 *   pk = G#{name}#{generation}      sk = K#{key}                idempotency record
 *   pk = TOMB                       sk = {name}#{generation}    tombstone
 *   pk = LEASE                      sk = LEASE                  leader lease
 *   pk = NODE                       sk = {nodeId}               node heartbeat
 *   pk = PIN                        sk = {pinId}                snapshot pin (attribute pin: its JSON)
 *   pk = META                       sk = FORMAT                 layout version
 * </pre>
 */
final class DynamoItems {
  static final String PK = "pk";
  static final String SK = "sk";
  static final String TXN = "txn";
  static final String TABLES = "TABLES";
  static final String TOMBSTONES = "TOMB";
  static final String NODES = "NODE";
  static final String PINS = "PIN";
  static final String HISTORY_PREFIX = "V#";
  static final String KEY_PREFIX = "K#";

  private DynamoItems() {}

  static Map<String, AttributeValue> key(String pk, String sk) {
    return Map.of(PK, s(pk), SK, s(sk));
  }

  static Map<String, AttributeValue> registrationKey(String name) {
    return key(TABLES, name);
  }

  static String generationPartition(String name, String generation) {
    return "G#" + name + "#" + generation;
  }

  static Map<String, AttributeValue> historyKey(String name, String generation, long version) {
    return key(generationPartition(name, generation), HISTORY_PREFIX + String.format("%020d", version));
  }

  static Map<String, AttributeValue> idempotencyKey(String name, String generation, String key) {
    return key(generationPartition(name, generation), KEY_PREFIX + key);
  }

  static Map<String, AttributeValue> tombstoneKey(String name, String generation) {
    return key(TOMBSTONES, name + "#" + generation);
  }

  static Map<String, AttributeValue> leaseKey() {
    return key("LEASE", "LEASE");
  }

  static Map<String, AttributeValue> formatKey() {
    return key("META", "FORMAT");
  }

  static Map<String, AttributeValue> registration(TableRegistration r, String txn) {
    Map<String, AttributeValue> item = item(registrationKey(r.name()), txn);
    item.put("name", s(r.name()));
    item.put("generation", s(r.generation()));
    item.put("location", s(r.location()));
    item.put("version", n(r.version()));
    item.put("schema", s(r.schema()));
    item.put("term", n(r.term()));
    item.put("createdAt", s(r.createdAt().toString()));
    item.put("updatedAt", s(r.updatedAt().toString()));
    return item;
  }

  static TableRegistration registration(Map<String, AttributeValue> item) {
    return decode(item, "registration", () -> new TableRegistration(str(item, "name"), str(item, "generation"),
        str(item, "location"), num(item, "version"), str(item, "schema"), num(item, "term"),
        instant(item, "createdAt"), instant(item, "updatedAt")));
  }

  static Map<String, AttributeValue> history(TableRegistration r, String txn) {
    Map<String, AttributeValue> item = item(historyKey(r.name(), r.generation(), r.version()), txn);
    item.put("table", s(r.name()));
    item.put("generation", s(r.generation()));
    item.put("version", n(r.version()));
    item.put("registeredAt", s(r.updatedAt().toString()));
    return item;
  }

  static VersionRecord history(Map<String, AttributeValue> item) {
    return decode(item, "history item", () -> new VersionRecord(str(item, "table"), str(item, "generation"),
        num(item, "version"), instant(item, "registeredAt")));
  }

  static Map<String, AttributeValue> idempotency(IdempotencyRecord k, String txn) {
    Map<String, AttributeValue> item = item(idempotencyKey(k.table(), k.generation(), k.key()), txn);
    item.put("table", s(k.table()));
    item.put("generation", s(k.generation()));
    item.put("key", s(k.key()));
    item.put("version", n(k.version()));
    item.put("rowCount", n(k.rowCount()));
    item.put("createdAt", s(k.createdAt().toString()));
    return item;
  }

  static IdempotencyRecord idempotency(Map<String, AttributeValue> item) {
    return decode(item, "idempotency record", () -> new IdempotencyRecord(str(item, "table"),
        str(item, "generation"), str(item, "key"), num(item, "version"), num(item, "rowCount"),
        instant(item, "createdAt")));
  }

  static Map<String, AttributeValue> tombstone(Tombstone t, String txn) {
    Map<String, AttributeValue> item = item(tombstoneKey(t.name(), t.generation()), txn);
    item.put("name", s(t.name()));
    item.put("generation", s(t.generation()));
    item.put("location", s(t.location()));
    item.put("droppedAt", s(t.droppedAt().toString()));
    return item;
  }

  static Tombstone tombstone(Map<String, AttributeValue> item) {
    return decode(item, "tombstone", () -> new Tombstone(str(item, "name"), str(item, "generation"),
        str(item, "location"), instant(item, "droppedAt")));
  }

  static Map<String, AttributeValue> lease(LeaderLease l, String txn) {
    Map<String, AttributeValue> item = item(leaseKey(), txn);
    item.put("holder", s(l.holderId()));
    item.put("address", s(l.internalAddress()));
    item.put("term", n(l.term()));
    item.put("expiresAt", s(l.expiresAt().toString()));
    return item;
  }

  static LeaderLease lease(Map<String, AttributeValue> item) {
    return decode(item, "lease", () -> new LeaderLease(str(item, "holder"), str(item, "address"),
        num(item, "term"), instant(item, "expiresAt")));
  }

  static Map<String, AttributeValue> node(NodeInfo n) {
    Map<String, AttributeValue> item = new HashMap<>(key(NODES, n.nodeId()));
    item.put("nodeId", s(n.nodeId()));
    item.put("flightAddress", s(n.flightAddress()));
    item.put("internalAddress", s(n.internalAddress()));
    item.put("lastSeen", s(n.lastSeen().toString()));
    return item;
  }

  static Map<String, AttributeValue> pinKey(String id) {
    return key(PINS, id);
  }

  static Map<String, AttributeValue> pin(SnapshotPin p) {
    Map<String, AttributeValue> item = new HashMap<>(pinKey(p.id()));
    item.put("pin", s(p.toJson()));
    return item;
  }

  static SnapshotPin pin(Map<String, AttributeValue> item) {
    return SnapshotPin.fromJson(str(item, "pin"));
  }

  static NodeInfo node(Map<String, AttributeValue> item) {
    return decode(item, "node item", () -> new NodeInfo(str(item, "nodeId"), str(item, "flightAddress"),
        str(item, "internalAddress"), instant(item, "lastSeen")));
  }

  /** The token of the mutation that wrote {@code item}, or null. */
  static String txn(Map<String, AttributeValue> item) {
    AttributeValue v = item == null ? null : item.get(TXN);
    return v == null ? null : v.s();
  }

  static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  private static Map<String, AttributeValue> item(Map<String, AttributeValue> key, String txn) {
    Map<String, AttributeValue> item = new HashMap<>(key);
    item.put(TXN, s(txn));
    return item;
  }

  private static String str(Map<String, AttributeValue> item, String name) {
    AttributeValue v = item.get(name);
    if (v == null || v.s() == null) throw new IllegalArgumentException("attribute '" + name + "' is missing");
    return v.s();
  }

  private static long num(Map<String, AttributeValue> item, String name) {
    AttributeValue v = item.get(name);
    if (v == null || v.n() == null) throw new IllegalArgumentException("attribute '" + name + "' is missing");
    return Long.parseLong(v.n());
  }

  private static Instant instant(Map<String, AttributeValue> item, String name) {
    return Instant.parse(str(item, name));
  }

  private static String raw(Map<String, AttributeValue> item, String name) {
    AttributeValue v = item.get(name);
    return v == null ? "?" : v.s();
  }

  private interface Decoding<T> {
    T decode();
  }

  private static <T> T decode(Map<String, AttributeValue> item, String kind, Decoding<T> decoding) {
    try {
      return decoding.decode();
    } catch (RuntimeException e) {
      throw new RegistryUnavailableException("the " + kind + " item " + raw(item, PK) + "/" + raw(item, SK)
          + " is not readable (" + e.getMessage() + "): it was written by something other than this version of "
          + "lake; repair or remove it", e);
    }
  }
}
