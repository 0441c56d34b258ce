package dev.lake.flight.session;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One client session: its id and the options it set (absent = the default: catalog {@value #DEFAULT_CATALOG}, schema
 * {@value #DEFAULT_SCHEMA}). Values are stored lower-case, the way lake stores names.
 */
public record SessionState(String id, Optional<String> catalog, Optional<String> schema) {
  public static final String DEFAULT_CATALOG = "lake";
  public static final String DEFAULT_SCHEMA = "main";

  public SessionState {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(schema, "schema");
  }

  /** The schema unqualified table names resolve against. */
  public String effectiveSchema() {
    return schema.orElse(DEFAULT_SCHEMA);
  }

  /** The catalog unqualified schema names resolve against. */
  public String effectiveCatalog() {
    return catalog.orElse(DEFAULT_CATALOG);
  }

  public SessionState withCatalog(Optional<String> value) {
    return new SessionState(id, value, schema);
  }

  public SessionState withSchema(Optional<String> value) {
    return new SessionState(id, catalog, value);
  }

  /** The options this session set, by name. */
  public Map<String, String> options() {
    Map<String, String> out = new LinkedHashMap<>();
    catalog.ifPresent(c -> out.put(SessionOptionsHandler.CATALOG, c));
    schema.ifPresent(s -> out.put(SessionOptionsHandler.SCHEMA, s));
    return out;
  }
}
