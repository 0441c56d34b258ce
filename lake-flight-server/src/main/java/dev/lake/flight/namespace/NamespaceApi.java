package dev.lake.flight.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.registry.VersionRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The routes of the Lance REST Namespace spec that lake serves, as JSON in and out (docs/api.md, "Lance REST
 * Namespace"). lake has one catalog with one schema: the root namespace holds {@code main}, and {@code main} holds
 * every table (a table id is {@code main$<table>}, or {@code <table>} alone). Every route that would write answers
 * Unsupported; so do the data routes (queries go through Flight SQL).
 */
final class NamespaceApi {
  static final String SCHEMA = "main";
  static final String PIN_HEADER = "x-lake-pin";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_PAGE = 10_000;
  /** Operations (the last path segments) that change something: refused. */
  private static final Set<String> TABLE_WRITES = Set.of("register", "drop", "deregister", "restore", "rename",
      "schema_metadata/update", "version/create", "version/delete", "alter_columns", "drop_columns", "insert",
      "merge_insert", "update", "delete", "create", "add_columns", "backfill_column", "create_index",
      "create_scalar_index", "declare", "tags/create", "tags/delete", "tags/update", "refresh");
  private static final String READ_ONLY = "lake's Lance namespace is read-only: writes go through Flight SQL "
      + "ingest (bulk ingest or INSERT through a Flight SQL client; docs/api.md)";

  /** One request, already authenticated. */
  record Request(String method, List<String> segments, Map<String, String> query, JsonNode body,
      Optional<String> pin) {}

  /** One answer: status and JSON body (null for no content). */
  record Response(int status, JsonNode body) {}

  private final TableResolver resolver;

  NamespaceApi(TableResolver resolver) {
    this.resolver = resolver;
  }

  Response handle(Request r) {
    List<String> s = r.segments();
    if (s.size() < 2 || !"v1".equals(s.get(0))) {
      throw notRoute(r);
    }
    String kind = s.get(1);
    if ("table".equals(kind) && (s.size() == 3 && "batch-commit".equals(s.get(2))
        || s.size() == 4 && "version".equals(s.get(2)) && "batch-create".equals(s.get(3)))) {
      throw unsupported(READ_ONLY);
    }
    if ("table".equals(kind) && s.size() == 2) {
      throw unsupported(READ_ONLY);
    }
    if ("transaction".equals(kind) || "materialized_view".equals(kind)) {
      throw unsupported(s.size() >= 4 && "describe".equals(s.get(3))
          ? "lake has no namespace transactions: " + READ_ONLY : READ_ONLY);
    }
    if (s.size() < 4) {
      throw notRoute(r);
    }
    String id = s.get(2);
    String op = String.join("/", s.subList(3, s.size()));
    String delimiter = r.query().getOrDefault("delimiter", "$");
    if (delimiter.isEmpty()) {
      throw NamespaceException.invalid("the delimiter must not be empty");
    }
    List<String> parts = id.equals(delimiter) ? List.of() : List.of(id.split(java.util.regex.Pattern.quote(
        delimiter), -1));
    return switch (kind) {
      case "namespace" -> namespace(r, parts, op);
      case "table" -> table(r, parts, op);
      default -> throw notRoute(r);
    };
  }

  private Response namespace(Request r, List<String> parts, String op) {
    boolean root = parts.isEmpty();
    boolean main = parts.size() == 1 && SCHEMA.equalsIgnoreCase(parts.get(0));
    switch (op) {
      case "create", "drop" -> throw unsupported(READ_ONLY);
      default -> { }
    }
    if (!root && !main) {
      throw new NamespaceException(NamespaceException.Kind.NAMESPACE_NOT_FOUND, "namespace '"
          + TableResolver.shorten(String.join("$", parts)) + "' does not exist: lake has one schema, 'main'");
    }
    return switch (op) {
      case "list" -> {
        ObjectNode out = JSON.createObjectNode();
        ArrayNode names = out.putArray("namespaces");
        if (root) {
          names.add(SCHEMA);
        }
        yield new Response(200, out);
      }
      case "describe" -> {
        ObjectNode out = JSON.createObjectNode();
        out.putObject("properties");
        yield new Response(200, out);
      }
      case "exists" -> new Response(204, null);
      case "table/list" -> {
        List<String> names = root ? List.of() : resolver.tables();
        yield new Response(200, page(names, r.query(), "tables"));
      }
      default -> throw unsupported("operation '" + op + "' is not served by lake's namespace");
    };
  }

  private Response table(Request r, List<String> parts, String op) {
    if (TABLE_WRITES.contains(op) || op.startsWith("index/") && op.endsWith("/drop")) {
      throw unsupported(READ_ONLY);
    }
    String table = tableName(parts);
    return switch (op) {
      case "describe" -> new Response(200, describe(r, table));
      case "exists" -> {
        resolver.resolve(table, Optional.empty(), r.pin());
        yield new Response(204, null);
      }
      case "version/list" -> new Response(200, versions(r, table));
      case "version/describe" -> {
        ResolvedTable t = resolver.resolve(table, version(r), r.pin());
        ObjectNode out = JSON.createObjectNode();
        out.set("version", versionJson(t.version(), t.manifestPath(), t.registeredAt().toEpochMilli()));
        yield new Response(200, out);
      }
      default -> throw unsupported("operation '" + op + "' is not served by lake's namespace: query the table "
          + "through Flight SQL, or open it with the location DescribeTable returns");
    };
  }

  private ObjectNode describe(Request r, String table) {
    ResolvedTable t = resolver.resolve(table, version(r), r.pin());
    ObjectNode out = JSON.createObjectNode();
    out.put("table", t.name());
    out.putArray("namespace").add(SCHEMA);
    out.put("version", t.version());
    out.put("location", t.location());
    out.put("table_uri", t.location());
    if (!t.storageOptions().isEmpty()) {
      ObjectNode options = out.putObject("storage_options");
      t.storageOptions().entrySet().stream().sorted(Map.Entry.comparingByKey())
          .forEach(e -> options.put(e.getKey(), e.getValue()));
    }
    ObjectNode properties = out.putObject("properties");
    properties.put("lake.generation", t.generation());
    properties.put("lake.registered_at", t.registeredAt().toString());
    t.pin().ifPresent(p -> properties.put("lake.pin", p));
    out.put("managed_versioning", true);
    return out;
  }

  private ObjectNode versions(Request r, String table) {
    List<VersionRecord> all = resolver.versions(table);
    if (r.pin().isPresent()) {
      // under a pin the table's history ends at the pinned version: a Lance reader that takes the newest listed
      // version as current (managed versioning) opens the pinned one
      ResolvedTable pinned = resolver.resolve(table, Optional.empty(), r.pin());
      List<VersionRecord> upTo = new java.util.ArrayList<>(all.stream()
          .filter(v -> v.version() <= pinned.version()).toList());
      if (upTo.stream().noneMatch(v -> v.version() == pinned.version())) {
        upTo.add(0, new VersionRecord(pinned.name(), pinned.generation(), pinned.version(), pinned.registeredAt()));
      }
      all = upTo;
    }
    int limit = limit(r.query());
    long after = r.query().containsKey("page_token") ? parseLong("page_token", r.query().get("page_token")) : -1;
    ObjectNode out = JSON.createObjectNode();
    ArrayNode list = out.putArray("versions");
    long last = -1;
    int n = 0;
    boolean more = false;
    for (VersionRecord v : all) {
      if (after >= 0 && v.version() >= after) {
        continue;
      }
      if (n == limit) {
        more = true;
        break;
      }
      ResolvedTable t = resolver.resolve(table, Optional.of(v.version()), Optional.empty());
      list.add(versionJson(v.version(), t.manifestPath(), v.registeredAt().toEpochMilli()));
      last = v.version();
      n++;
    }
    if (more) {
      out.put("page_token", Long.toString(last));
    }
    return out;
  }

  private static ObjectNode versionJson(long version, String manifestPath, long timestampMillis) {
    ObjectNode v = JSON.createObjectNode();
    v.put("version", version);
    v.put("manifest_path", manifestPath);
    v.put("timestamp_millis", timestampMillis);
    return v;
  }

  private static ObjectNode page(List<String> names, Map<String, String> query, String field) {
    int limit = limit(query);
    String after = query.get("page_token");
    ObjectNode out = JSON.createObjectNode();
    ArrayNode list = out.putArray(field);
    String last = null;
    boolean more = false;
    for (String n : names) {
      if (after != null && n.compareTo(after) <= 0) {
        continue;
      }
      if (list.size() == limit) {
        more = true;
        break;
      }
      list.add(n);
      last = n;
    }
    if (more) {
      out.put("page_token", last);
    }
    return out;
  }

  private static int limit(Map<String, String> query) {
    if (!query.containsKey("limit")) {
      return MAX_PAGE;
    }
    long limit = parseLong("limit", query.get("limit"));
    if (limit < 1) {
      throw NamespaceException.invalid("limit must be a positive integer, got " + limit);
    }
    return (int) Math.min(limit, MAX_PAGE);
  }

  private static Optional<Long> version(Request r) {
    JsonNode v = r.body() == null ? null : r.body().get("version");
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < 0) {
      throw NamespaceException.invalid("version must be a non-negative integer");
    }
    return Optional.of(v.asLong());
  }

  private static long parseLong(String key, String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (RuntimeException e) {
      throw NamespaceException.invalid(key + " must be an integer, got '" + TableResolver.shorten(text) + "'");
    }
  }

  private static String tableName(List<String> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    if (parts.size() == 2 && SCHEMA.equalsIgnoreCase(parts.get(0))) {
      return parts.get(1);
    }
    if (parts.size() == 2) {
      throw new NamespaceException(NamespaceException.Kind.NAMESPACE_NOT_FOUND, "namespace '"
          + TableResolver.shorten(parts.get(0)) + "' does not exist: lake has one schema, 'main'");
    }
    throw NamespaceException.tableNotFound("no table '" + TableResolver.shorten(String.join("$", parts))
        + "' in lake.main: a table id is main$<table> or <table>");
  }

  private static NamespaceException unsupported(String message) {
    return new NamespaceException(NamespaceException.Kind.UNSUPPORTED, message);
  }

  private static NamespaceException notRoute(Request r) {
    return new NamespaceException(NamespaceException.Kind.UNSUPPORTED, "no Lance namespace route "
        + r.method() + " /" + TableResolver.shorten(String.join("/", r.segments())));
  }
}
