package dev.lake.flight;

import dev.lake.flight.grpc.StatusMapper;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.auth.Role;
import dev.lake.flight.cluster.Forwarding;
import dev.lake.flight.cluster.InternalEndpoint;
import dev.lake.flight.namespace.NamespaceActions;
import dev.lake.engine.IndexKind;
import dev.lake.engine.TableIndex;
import dev.lake.metasrv.IndexBuilds;
import dev.lake.metasrv.Leadership;
import dev.lake.metasrv.Maintenance;
import dev.lake.metasrv.MaintenanceReport;
import dev.lake.metasrv.WriteCoordinator;
import dev.lake.registry.LeaderLease;
import dev.lake.registry.MetaStore;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableNotFoundException;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.StreamListener;
import org.apache.arrow.flight.Result;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * lake's admin actions (Flight DoAction, UTF-8 JSON bodies, documented in docs/api.md). Each returns one JSON
 * result. On a follower, the writing actions ({@code lake.drop_table}, {@code lake.maintain_table},
 * {@code lake.create_index}) are forwarded to
 * the leader ({@link Forwarding}) after the caller's role was checked here; the leader's internal endpoint runs them
 * through {@link #runHere}. Read-your-writes needs nothing here: the write coordinator, maintenance and the
 * forwarding client tell the node's catalog (a {@link dev.lake.registry.RegistrationListener}).
 */
final class AdminActions implements InternalEndpoint.LocalActions {
  static final String DROP_TABLE = "lake.drop_table";
  static final String MAINTAIN_TABLE = "lake.maintain_table";
  static final String DESCRIBE_TABLE = "lake.describe_table";
  static final String CREATE_INDEX = "lake.create_index";
  private static final java.util.Set<String> CREATE_INDEX_FIELDS = java.util.Set.of("table", "column", "type", "name");
  static final String STATUS = "lake.status";
  private static final ObjectMapper JSON = new ObjectMapper();
  private final WriteCoordinator writes;
  private final Maintenance maintenance;
  private final MetaStore store;
  private final Leadership leadership;
  private final String nodeId;
  private final Forwarding forwarding;
  private final NamespaceActions namespace;
  private final java.util.function.Supplier<Optional<String>> warmup;

  AdminActions(WriteCoordinator writes, Maintenance maintenance, MetaStore store, Leadership leadership,
      String nodeId, Forwarding forwarding, NamespaceActions namespace) {
    this(writes, maintenance, store, leadership, nodeId, forwarding, namespace, Optional::empty);
  }

  /** @param warmup empty once this node answers queries of registered tables (its start-up warm-up finished) */
  AdminActions(WriteCoordinator writes, Maintenance maintenance, MetaStore store, Leadership leadership,
      String nodeId, Forwarding forwarding, NamespaceActions namespace,
      java.util.function.Supplier<Optional<String>> warmup) {
    this.warmup = warmup;
    this.writes = writes;
    this.maintenance = maintenance;
    this.store = store;
    this.leadership = leadership;
    this.nodeId = nodeId;
    this.forwarding = forwarding;
    this.namespace = namespace;
  }

  boolean handles(String type) {
    return type != null && type.startsWith("lake.");
  }

  List<ActionType> types() {
    List<ActionType> types = new java.util.ArrayList<>(List.of(
        new ActionType(DROP_TABLE, "Drop a table (admin): {\"table\"} -> {\"table\", \"generation\", \"version\"}"),
        new ActionType(MAINTAIN_TABLE, "Compact and apply retention (admin): {\"table\"} -> what was done"),
        new ActionType(CREATE_INDEX, "Build a scalar index (admin): {\"table\", \"column\", \"type\": BTREE|BITMAP, "
            + "\"name\"?} -> the registered version and the index"),
        new ActionType(DESCRIBE_TABLE, "Describe a table: {\"table\"} -> schema, generation, version, history"),
        new ActionType(STATUS, "Node, leader and registry status: {} -> status")));
    NamespaceActions.descriptions().forEach((type, text) -> types.add(new ActionType(type, text)));
    return List.copyOf(types);
  }

  void run(Identity caller, Action action, StreamListener<Result> listener) throws IOException {
    listener.onNext(new Result(execute(caller, action, true)));
    listener.onCompleted();
  }

  /** Runs a forwarded action on this node (the leader's internal endpoint): never forwarded again. */
  @Override
  public byte[] runHere(Identity caller, Action action) {
    try {
      return execute(caller, action, false);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private byte[] execute(Identity caller, Action action, boolean mayForward) throws IOException {
    ObjectNode out = switch (action.getType()) {
      case DROP_TABLE -> drop(caller, action, mayForward);
      case MAINTAIN_TABLE -> maintain(caller, action, mayForward);
      case CREATE_INDEX -> createIndex(caller, action, mayForward);
      case DESCRIBE_TABLE -> describe(action);
      case STATUS -> status(caller.role().allows(Role.ADMIN));
      case NamespaceActions.RESOLVE_TABLE, NamespaceActions.PIN_SNAPSHOT ->
          namespace.execute(caller, action.getType(), action.getBody());
      default -> throw new LakeException(ErrorCode.UNIMPLEMENTED, "unknown action '" + StatusMapper.truncate(
          action.getType()) + "'; ListActions names the ones lake has");
    };
    return JSON.writeValueAsBytes(out);
  }

  private ObjectNode drop(Identity caller, Action action, boolean mayForward) {
    requireRole(caller, Role.ADMIN, "drop tables");
    String name = text(body(action), "table");
    Optional<Forwarding.Target> leader = leader(mayForward);
    if (leader.isPresent()) {
      return forwarding.drop(leader.get(), caller, action, name);
    }
    TableRegistration dropped = writes.drop(name);
    ObjectNode out = JSON.createObjectNode();
    out.put("table", dropped.name()).put("generation", dropped.generation()).put("version", dropped.version());
    return out;
  }

  /** The leader a writing action goes to when this node is a follower; empty when it runs here. */
  private Optional<Forwarding.Target> leader(boolean mayForward) {
    return mayForward ? forwarding.target() : Optional.empty();
  }

  private ObjectNode maintain(Identity caller, Action action, boolean mayForward) {
    requireRole(caller, Role.ADMIN, "maintain tables");
    String table = TableNames.normalize(text(body(action), "table"));
    Optional<Forwarding.Target> leader = leader(mayForward);
    if (leader.isPresent()) {
      return forwarding.maintain(leader.get(), caller, action, table);
    }
    MaintenanceReport report = maintenance.maintain(table);
    ObjectNode out = JSON.createObjectNode();
    out.put("table", table);
    if (report.compactedTo().isPresent()) {
      out.put("compacted_to_version", report.compactedTo().get());
    } else {
      out.putNull("compacted_to_version");
    }
    out.put("versions_removed", report.versionsRemoved());
    out.put("history_expired", report.historyExpired());
    out.put("keys_expired", report.keysExpired());
    out.put("orphan_files_deleted", report.orphansDeleted());
    return out;
  }

  /**
   * {@code lake.create_index}: every field checked here (unknown fields, types, the index type) before the leader
   * builds it; the table, column and name are checked by the leader against the registered version.
   */
  private ObjectNode createIndex(Identity caller, Action action, boolean mayForward) {
    requireRole(caller, Role.ADMIN, "create indexes");
    JsonNode body = body(action);
    body.fieldNames().forEachRemaining(field -> {
      if (!CREATE_INDEX_FIELDS.contains(field)) {
        throw new LakeException(ErrorCode.INVALID_ARGUMENT, "unknown field \"" + StatusMapper.truncate(field)
            + "\" in " + CREATE_INDEX + "; it takes " + new java.util.TreeSet<>(CREATE_INDEX_FIELDS));
      }
    });
    String table = TableNames.normalize(text(body, "table"));
    String column = text(body, "column");
    String typeText = text(body, "type");
    IndexKind kind = IndexKind.parse(typeText).orElseThrow(() -> new LakeException(ErrorCode.INVALID_ARGUMENT,
        "unknown index type '" + StatusMapper.truncate(typeText) + "': use BTREE (keys, ranges) or BITMAP (few "
            + "distinct values)"));
    Optional<String> name = body.has("name") ? Optional.of(text(body, "name")) : Optional.empty();
    Optional<Forwarding.Target> leader = leader(mayForward);
    if (leader.isPresent()) {
      return forwarding.createIndex(leader.get(), caller, action, table);
    }
    IndexBuilds.Created created = maintenance.indexes().create(table, column, kind, name);
    ObjectNode out = JSON.createObjectNode();
    out.put("table", created.registration().name()).put("generation", created.registration().generation())
        .put("version", created.registration().version());
    index(out.putObject("index"), created.index());
    return out;
  }

  private static void index(ObjectNode out, TableIndex index) {
    out.put("name", index.name()).put("type", index.type());
    ArrayNode columns = out.putArray("columns");
    index.columns().forEach(columns::add);
    out.put("built_at_version", index.builtAtVersion()).put("fragments", index.fragments());
  }

  private ObjectNode describe(Action action) throws IOException {
    String table = TableNames.normalize(text(body(action), "table"));
    TableRegistration r = store.get(table).orElseThrow(() -> new TableNotFoundException(table));
    ObjectNode out = JSON.createObjectNode();
    out.put("table", r.name()).put("generation", r.generation()).put("version", r.version())
        .put("term", r.term()).put("created_at", r.createdAt().toString())
        .put("updated_at", r.updatedAt().toString());
    ArrayNode columns = out.putArray("columns");
    for (Field f : dev.lake.engine.RegisteredSchema.of(r).getFields()) {
      columns.addObject().put("name", f.getName()).put("type", dev.lake.engine.SqlTypeNames.of(f.getType()))
          .put("arrow_type", f.getType().toString())
          .put("nullable", f.isNullable());
    }
    ArrayNode indexes = out.putArray("indexes");
    maintenance.indexes().indexes(r).forEach(i -> index(indexes.addObject(), i));
    ArrayNode history = out.putArray("history");
    for (VersionRecord v : store.history(r.name(), r.generation())) {
      history.addObject().put("version", v.version()).put("registered_at", v.registeredAt().toString());
    }
    return out;
  }

  /**
   * The node's view of the cluster. A reader sees the registry's kind only, never its path, bucket or endpoint, and no
   * internal endpoint addresses (admins see both: {@code showInternal}).
   */
  private ObjectNode status(boolean showInternal) {
    ObjectNode out = JSON.createObjectNode();
    String registry = store.describe();
    if (!showInternal) {
      int colon = registry.indexOf(':');
      registry = colon > 0 ? registry.substring(0, colon) : registry;
    }
    Optional<String> warming = warmup.get();
    out.put("node", nodeId).put("leader", leadership.isLeader()).put("registry", registry)
        .put("ready", warming.isEmpty()).put("warmup", warming.orElse("done"));
    Optional<LeaderLease> lease = store.lease();
    if (lease.isPresent()) {
      out.put("leader_id", lease.get().holderId()).put("term", lease.get().term())
          .put("lease_expires_at", lease.get().expiresAt().toString());
      ObjectNode held = out.putObject("lease").put("holder", lease.get().holderId()).put("term", lease.get().term())
          .put("expires_at", lease.get().expiresAt().toString());
      if (showInternal) {
        held.put("internal_address", lease.get().internalAddress());
      }
    }
    ArrayNode nodes = out.putArray("nodes");
    store.nodes().forEach(n -> {
      ObjectNode node = nodes.addObject().put("node", n.nodeId()).put("address", n.flightAddress());
      if (showInternal) {
        node.put("internal_address", n.internalAddress());
      }
      node.put("last_seen", n.lastSeen().toString());
    });
    return out;
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
        throw new LakeException(ErrorCode.INVALID_ARGUMENT,
            "the body of " + action.getType() + " must be a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "the body of " + action.getType() + " is not valid JSON");
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || !v.isTextual()) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "the request needs a string field \"" + field + "\"");
    }
    return v.asText();
  }
}
