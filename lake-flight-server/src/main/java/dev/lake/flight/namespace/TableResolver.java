package dev.lake.flight.namespace;

import dev.lake.engine.StorageOptions;
import dev.lake.query.Catalog;
import dev.lake.registry.MetaStore;
import dev.lake.registry.SnapshotPin;
import dev.lake.registry.TableNames;
import dev.lake.registry.TableRegistration;
import dev.lake.registry.VersionRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one service behind the Lance REST Namespace and the {@code lake.resolve_table} / {@code lake.pin_snapshot}
 * actions: resolves a table to the snapshot a reader must open (its registered version, an older registered version
 * asked for, or the version a snapshot pin holds) and creates pins. Reads the query side's {@link Catalog}; the
 * registry only for pins. Never answers a version the registry does not name (docs/architecture.md, invariant 1).
 */
public final class TableResolver {
  private static final Logger LOG = LoggerFactory.getLogger(TableResolver.class);
  /** The most tables one pin may name. */
  public static final int MAX_PIN_TABLES = 100;

  private final Catalog catalog;
  private final MetaStore store;
  private final StorageOptions storage;
  private final boolean vendsCredentials;
  private final Clock clock;
  private final NamespaceSettings settings;

  /**
   * @param storage the data root's Lance storage options, asked at every resolution (fresh S3 credentials)
   * @param vendsCredentials true for an S3 data root: the options carry credentials and an expiry
   */
  public TableResolver(Catalog catalog, MetaStore store, StorageOptions storage, boolean vendsCredentials,
      Clock clock, NamespaceSettings settings) {
    this.catalog = catalog;
    this.store = store;
    this.storage = storage;
    this.vendsCredentials = vendsCredentials;
    this.clock = clock;
    this.settings = settings;
  }

  /** The names of every registered table, in name order. */
  public List<String> tables() {
    return catalog.tables().stream().map(TableRegistration::name).sorted().toList();
  }

  /**
   * Resolves {@code table}: through the pin when one is given (the pinned version, unless {@code version} asks for
   * another registered one), else at {@code version} if given (it must be registered and retained), else at the
   * registered version now.
   *
   * @throws NamespaceException TABLE_NOT_FOUND, TABLE_VERSION_NOT_FOUND or INVALID_INPUT (an unknown or expired
   *     pin, a table the pin does not name)
   */
  public ResolvedTable resolve(String table, Optional<Long> version, Optional<String> pinId) {
    String name = name(table);
    TableRegistration current = catalog.table(name).orElseThrow(() -> NamespaceException.tableNotFound(
        "table '" + name + "' does not exist in lake.main"));
    if (pinId.isPresent()) {
      SnapshotPin pin = livePin(pinId.get());
      SnapshotPin.Table pinned = pin.table(name).orElseThrow(() -> NamespaceException.invalid("table '" + name
          + "' is not in snapshot pin " + pin.id() + " (it pins " + pin.tables().stream()
          .map(SnapshotPin.Table::name).toList() + "): pin it too, or read without the pin"));
      if (!pinned.generation().equals(current.generation())) {
        throw NamespaceException.tableNotFound("table '" + name + "' was dropped (or replaced) after snapshot pin "
            + pin.id() + " was taken: the pinned snapshot is gone");
      }
      if (version.isEmpty() || version.get() == pinned.version()) {
        Instant at = registeredAt(current, pinned.version()).orElse(pin.createdAt());
        return resolved(current, pinned.version(), at, Optional.of(pin.id()));
      }
    }
    if (version.isEmpty()) {
      return resolved(current, current.version(), current.updatedAt(), pinId);
    }
    long asked = version.get();
    Optional<Instant> at = registeredAt(current, asked);
    if (at.isEmpty()) {
      throw new NamespaceException(NamespaceException.Kind.TABLE_VERSION_NOT_FOUND, "version " + asked
          + " of table '" + name + "' is not a registered, retained version (the registered version is "
          + current.version() + "; ListTableVersions names the readable ones)");
    }
    return resolved(current, asked, at.get(), pinId);
  }

  /**
   * The registered, retained versions of the table's current incarnation, newest first (a pin's version is listed
   * while the pin holds it).
   */
  public List<VersionRecord> versions(String table) {
    String name = name(table);
    TableRegistration current = catalog.table(name).orElseThrow(() -> NamespaceException.tableNotFound(
        "table '" + name + "' does not exist in lake.main"));
    List<VersionRecord> items = new ArrayList<>(catalog.history(current.name(), current.generation()));
    if (items.stream().noneMatch(v -> v.version() == current.version())) {
      items.add(new VersionRecord(current.name(), current.generation(), current.version(), current.updatedAt()));
    }
    items.sort(Comparator.comparingLong(VersionRecord::version).reversed());
    return items;
  }

  /**
   * Resolves {@code tables} at one moment (each at its registered version, read from the registry itself) and stores
   * a pin holding them for {@code ttl}.
   *
   * @throws NamespaceException INVALID_INPUT for a bad request, TABLE_NOT_FOUND, THROTTLING when
   *     {@code namespace.max-pins} live pins exist
   */
  public SnapshotPin pin(String owner, List<String> tables, Duration ttl) {
    if (tables.isEmpty() || tables.size() > MAX_PIN_TABLES) {
      throw NamespaceException.invalid("a snapshot pin names 1.." + MAX_PIN_TABLES + " tables, got " + tables.size());
    }
    if (ttl.isZero() || ttl.isNegative() || ttl.compareTo(settings.maxPinTtl()) > 0) {
      throw NamespaceException.invalid("a snapshot pin's ttl must be positive and at most " + settings.maxPinTtl()
          + " (namespace.max-pin-ttl), got " + ttl);
    }
    LinkedHashSet<String> names = new LinkedHashSet<>();
    for (String t : tables) {
      names.add(name(t));
    }
    Instant now = clock.instant();
    List<SnapshotPin> live = new ArrayList<>();
    for (SnapshotPin p : store.pins()) {
      if (p.liveAt(now)) {
        live.add(p);
      }
    }
    if (live.size() >= settings.maxPins()) {
      throw new NamespaceException(NamespaceException.Kind.THROTTLING, live.size() + " snapshot pins are live, the "
          + "most namespace.max-pins allows: wait for one to expire or ask for shorter ttls");
    }
    List<SnapshotPin.Table> pinned = new ArrayList<>();
    for (String n : names) {
      TableRegistration r = store.get(n).orElseThrow(() -> NamespaceException.tableNotFound(
          "table '" + n + "' does not exist in lake.main"));
      pinned.add(new SnapshotPin.Table(r.name(), r.generation(), r.location(), r.version()));
    }
    SnapshotPin pin = new SnapshotPin(UUID.randomUUID().toString(), owner, now, now.plus(ttl), pinned);
    store.putPin(pin);
    LOG.info("snapshot pin created pin={} owner={} expiresAt={} tables={}", pin.id(), owner, pin.expiresAt(),
        pinned.stream().map(t -> t.name() + "@v" + t.version()).toList());
    return pin;
  }

  private SnapshotPin livePin(String id) {
    if (id.isBlank() || id.length() > 128) {
      throw NamespaceException.invalid("a snapshot pin id is 1..128 characters");
    }
    Optional<SnapshotPin> pin = store.pin(id.strip());
    if (pin.isEmpty() || !pin.get().liveAt(clock.instant())) {
      throw NamespaceException.invalid("snapshot pin " + id.strip() + " is unknown or expired: take a new one with "
          + "lake.pin_snapshot");
    }
    return pin.get();
  }

  private Optional<Instant> registeredAt(TableRegistration current, long version) {
    if (version == current.version()) {
      return Optional.of(current.updatedAt());
    }
    return catalog.history(current.name(), current.generation()).stream().filter(v -> v.version() == version)
        .map(VersionRecord::registeredAt).findFirst();
  }

  private ResolvedTable resolved(TableRegistration r, long version, Instant registeredAt, Optional<String> pin) {
    Map<String, String> options = new HashMap<>(storage.current());
    Optional<Instant> expires = Optional.empty();
    if (vendsCredentials) {
      Instant at = clock.instant().plus(settings.credentialLifetime());
      options.put("expires_at_millis", Long.toString(at.toEpochMilli()));
      expires = Optional.of(at);
    }
    String location = stripSlash(r.location());
    return new ResolvedTable(r.name(), r.generation(), version, location, manifestPath(location, version), options,
        expires, r.schema(), registeredAt, pin);
  }

  /**
   * The object-store path of a version's manifest under Lance's V2 naming ({@code _versions/{u64::MAX - v}
   * .manifest}, what lake's Lance writes): the location without scheme, bucket or leading slash.
   */
  static String manifestPath(String location, long version) {
    String path;
    int scheme = location.indexOf("://");
    if (scheme >= 0) {
      String rest = location.substring(scheme + 3);
      int slash = rest.indexOf('/');
      path = slash < 0 ? "" : rest.substring(slash + 1);
    } else {
      path = location;
    }
    while (path.startsWith("/")) {
      path = path.substring(1);
    }
    String prefix = path.isEmpty() ? "" : path + "/";
    return prefix + "_versions/" + Long.toUnsignedString(-1L - version) + ".manifest";
  }

  private static String stripSlash(String location) {
    String l = location;
    while (l.length() > 1 && l.endsWith("/")) {
      l = l.substring(0, l.length() - 1);
    }
    return l;
  }

  private static String name(String table) {
    if (!TableNames.isValid(table)) {
      throw NamespaceException.tableNotFound("no table '" + shorten(table) + "' in lake.main (a table name is a "
          + "letter or underscore followed by up to 127 letters, digits or underscores)");
    }
    return TableNames.normalize(table);
  }

  static String shorten(String text) {
    if (text == null) {
      return "null";
    }
    return text.length() > 64 ? text.substring(0, 64) + "..." : text;
  }
}
