package dev.lake.flight.config;

import dev.lake.query.QueryOptions;

import dev.lake.query.plan.SubtreeExecutor;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.lake.flight.auth.PasswordHasher;
import dev.lake.flight.values.ConfigValues;
import dev.lake.flight.auth.Role;
import dev.lake.flight.auth.User;
import dev.lake.flight.cluster.ClusterNodeSettings;
import dev.lake.flight.limits.LimitSettings;
import dev.lake.flight.metrics.LogSettings;
import dev.lake.flight.metrics.MetricsSettings;
import dev.lake.flight.security.GuardSettings;
import dev.lake.flight.namespace.NamespaceSettings;
import dev.lake.flight.security.SecuritySettings;
import dev.lake.flight.spool.ResultSettings;
import dev.lake.flight.storage.StorageSettings;
import dev.lake.engine.CompactionOptions;
import dev.lake.metasrv.MaintenanceSettings;
import dev.lake.query.CatalogSettings;
import java.io.IOException;
import java.nio.file.Files;
import dev.lake.query.spill.SpillOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds a {@link LakeConfig} from a YAML file, then {@code LAKE_*} environment variables, then CLI overrides (each
 * later source wins). Keys are dotted paths ({@code server.port}); the environment spells them upper-case with
 * underscores ({@code LAKE_SERVER_PORT}). Unknown keys are an error, so a typo never passes silently.
 */
public final class ConfigLoader {
  /** Every scalar key lake reads, with its default (null = none). auth.users is a list, handled apart. */
  static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

  static {
    DEFAULTS.put("node.id", "node-1");
    DEFAULTS.put("server.host", "127.0.0.1");
    DEFAULTS.put("server.port", "32010");
    DEFAULTS.put("data.dir", "./lake-data");
    DEFAULTS.put("data.root", null);
    DEFAULTS.put("auth.token-lifetime", "12h");
    DEFAULTS.put("cluster.secret", null);
    DEFAULTS.put("query.ticket-lifetime", "15m");
    DEFAULTS.put("query.batch-rows", "65536");
    DEFAULTS.put("query.memory-limit", "1GB");
    DEFAULTS.put("query.plan-cache-size", "64MB");
    DEFAULTS.put("query.executor", "auto");
    DEFAULTS.put("query.column-cache", "25%");
    DEFAULTS.put("query.warmup-rows", String.valueOf(LakeConfig.DEFAULT_WARMUP_ROWS));
    DEFAULTS.put("query.auto-analyze", "true");
    DEFAULTS.put("query.auto-parameterize", "true");
    DEFAULTS.put("query.vectorized-max-groups", String.valueOf(QueryOptions.DEFAULT_VECTORIZED_MAX_GROUPS));
    DEFAULTS.put("query.node-memory-limit", "50%");
    DEFAULTS.put("query.spill-dir", null);
    DEFAULTS.put("query.spill-limit", "10GB");
    DEFAULTS.put("query.node-spill-limit", "40GB");
    DEFAULTS.put("catalog.ttl", "30s");
    DEFAULTS.put("catalog.staleness-bound", "5m");
    DEFAULTS.put("catalog.negative-ttl", "2s");
    DEFAULTS.put("catalog.refresh-interval", null);
    DEFAULTS.put("ingest.memory-limit", "512MB");
    DEFAULTS.put("write.lock-timeout", "60s");
    DEFAULTS.put("retention.window", "1h");
    DEFAULTS.put("gc.drop-grace", "1h");
    DEFAULTS.put("gc.orphan-guard", "6h");
    DEFAULTS.put("maintenance.interval", "5m");
    DEFAULTS.putAll(StorageSettings.KEYS);
    // transport security, read-path limits, heavy results
    DEFAULTS.putAll(SecuritySettings.KEYS);
    DEFAULTS.putAll(GuardSettings.KEYS);
    DEFAULTS.putAll(LimitSettings.KEYS);
    DEFAULTS.putAll(dev.lake.flight.streams.StreamSettings.KEYS);
    DEFAULTS.putAll(dev.lake.query.sql.StatementLimits.KEYS);
    DEFAULTS.putAll(ResultSettings.KEYS);
    // cluster: lease timings, internal endpoint, advertised addresses
    DEFAULTS.putAll(ClusterNodeSettings.KEYS);
    // observability: metrics/health endpoint, log format, slow-query log
    DEFAULTS.putAll(MetricsSettings.KEYS);
    DEFAULTS.putAll(LogSettings.KEYS);
    // the Lance REST Namespace endpoint and snapshot pins
    DEFAULTS.putAll(NamespaceSettings.KEYS);
  }

  private static final Set<String> LIST_KEYS = Set.of("auth.users");
  private static final String DEFAULT_USER = "lake";

  private ConfigLoader() {}

  public static LakeConfig load(Optional<Path> file, Map<String, String> env, Map<String, String> overrides) {
    Map<String, String> values = new LinkedHashMap<>(DEFAULTS);
    JsonNode users = null;
    if (file.isPresent()) {
      JsonNode root = readYaml(file.get());
      Map<String, String> flat = new LinkedHashMap<>();
      flatten("", root, flat);
      users = root.path("auth").get("users");
      for (Map.Entry<String, String> e : flat.entrySet()) {
        if (LIST_KEYS.stream().anyMatch(k -> e.getKey().startsWith(k + "."))) {
          continue;
        }
        if (!DEFAULTS.containsKey(e.getKey())) {
          throw new IllegalArgumentException("unknown configuration key '" + e.getKey() + "' in " + file.get()
              + " (see docs/config.md)");
        }
        values.put(e.getKey(), e.getValue());
      }
    }
    for (String key : DEFAULTS.keySet()) {
      String envName = "LAKE_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
      if (env.containsKey(envName)) {
        values.put(key, env.get(envName));
      }
    }
    for (Map.Entry<String, String> e : overrides.entrySet()) {
      if (!DEFAULTS.containsKey(e.getKey())) {
        throw new IllegalArgumentException("unknown configuration key '" + e.getKey() + "'");
      }
      values.put(e.getKey(), e.getValue());
    }
    Map<String, User> userMap = new LinkedHashMap<>();
    boolean defaultPassword = false;
    if (users != null && !users.isNull()) {
      if (!users.isArray()) {
        throw new IllegalArgumentException("auth.users must be a list of {name, password-hash, role}");
      }
      for (JsonNode u : users) {
        String name = required(u, "name");
        String hash = required(u, "password-hash");
        if (!PasswordHasher.isHash(hash)) {
          throw new IllegalArgumentException("auth.users[" + name + "].password-hash is not a hash made by "
              + "'bin/lake passwd'");
        }
        userMap.put(name, new User(name, hash, Role.parse(u.path("role").asText("reader"))));
      }
    } else {
      userMap.put(DEFAULT_USER, new User(DEFAULT_USER, new PasswordHasher().hash(DEFAULT_USER.toCharArray()),
          Role.ADMIN));
      defaultPassword = true;
    }
    Path dataDir = Path.of(values.get("data.dir")).toAbsolutePath().normalize();
    String dataRoot = StorageSettings.dataRoot(Optional.ofNullable(values.get("data.root")), dataDir);
    return new LakeConfig(
        values.get("node.id"),
        values.get("server.host"),
        integer("server.port", values.get("server.port")),
        dataDir,
        dataRoot,
        userMap,
        defaultPassword,
        Optional.ofNullable(values.get("cluster.secret")).filter(s -> !s.isBlank()),
        duration("auth.token-lifetime", values.get("auth.token-lifetime")),
        duration("query.ticket-lifetime", values.get("query.ticket-lifetime")),
        integer("query.batch-rows", values.get("query.batch-rows")),
        bytes("query.memory-limit", values.get("query.memory-limit")),
        bytes("ingest.memory-limit", values.get("ingest.memory-limit")),
        duration("write.lock-timeout", values.get("write.lock-timeout")),
        new MaintenanceSettings(duration("retention.window", values.get("retention.window")),
            duration("gc.drop-grace", values.get("gc.drop-grace")),
            duration("gc.orphan-guard", values.get("gc.orphan-guard")),
            CompactionOptions.defaults()),
        duration("maintenance.interval", values.get("maintenance.interval")),
        StorageSettings.fromKeys(values),
        catalogSettings(values),
        planCacheBytes(values.get("query.plan-cache-size")),
        SubtreeExecutor.parse(values.get("query.executor")),
        heapShareOrBytes("query.column-cache", values.get("query.column-cache")),
        heapShareOrBytes("query.node-memory-limit", values.get("query.node-memory-limit")),
        SecuritySettings.fromKeys(values),
        GuardSettings.fromKeys(values),
        LimitSettings.fromKeys(values),
        ResultSettings.fromKeys(values, dataRoot),
        ClusterNodeSettings.fromKeys(values),
        MetricsSettings.fromKeys(values),
        LogSettings.fromKeys(values),
        dev.lake.flight.streams.StreamSettings.fromKeys(values),
        dev.lake.query.sql.StatementLimits.fromKeys(values),
        NamespaceSettings.fromKeys(values),
        spill(values, dataDir),
        integer("query.warmup-rows", values.get("query.warmup-rows")),
        bool("query.auto-analyze", values.get("query.auto-analyze")),
        bool("query.auto-parameterize", values.get("query.auto-parameterize")),
        groups("query.vectorized-max-groups", values.get("query.vectorized-max-groups")));
  }

  /** {@code query.spill-dir} (default: {@code spill} under the data directory), {@code query.spill-limit} and
   * {@code query.node-spill-limit} (0 turns spilling off). */
  private static SpillOptions spill(Map<String, String> values, Path dataDir) {
    String dir = values.get("query.spill-dir");
    Path root = dir == null || dir.isBlank() ? dataDir.resolve("spill") : Path.of(dir).toAbsolutePath().normalize();
    return new SpillOptions(root, bytes("query.spill-limit", values.get("query.spill-limit")),
        bytes("query.node-spill-limit", values.get("query.node-spill-limit")));
  }

  private static CatalogSettings catalogSettings(Map<String, String> values) {
    CatalogSettings settings = CatalogSettings.of(duration("catalog.ttl", values.get("catalog.ttl")),
        duration("catalog.staleness-bound", values.get("catalog.staleness-bound")),
        duration("catalog.negative-ttl", values.get("catalog.negative-ttl")));
    String interval = values.get("catalog.refresh-interval");
    return interval == null || interval.isBlank() ? settings
        : settings.withRefreshInterval(duration("catalog.refresh-interval", interval));
  }

  /** Parses a duration: {@link ConfigValues#duration}. */
  public static Duration duration(String key, String text) {
    return ConfigValues.duration(key, text);
  }

  /**
   * {@code query.plan-cache-size}: a size ({@link #bytes}); 0 turns the cache off. The key once counted statements
   * ({@code 1000}): a bare number under 1 MB other than 0 is refused as a probable count rather than read as a
   * cache of a few bytes.
   */
  static long planCacheBytes(String text) {
    long bytes = bytes("query.plan-cache-size", text);
    boolean unit = text != null && text.trim().toUpperCase(Locale.ROOT).endsWith("B");
    if (!unit && bytes > 0 && bytes < 1L << 20) {
      throw new IllegalArgumentException("query.plan-cache-size = '" + text.trim() + "' is read as bytes: the cache "
          + "is bounded by the bytes its plans retain, not by a count of statements; write a size such as 64MB "
          + "(or 0 to turn it off)");
    }
    return bytes;
  }

  /** Parses a size: {@link ConfigValues#bytes}. */
  public static long bytes(String key, String text) {
    return ConfigValues.bytes(key, text);
  }

  /** A size ({@link #bytes}) or a share of the JVM's maximum heap such as {@code 25%}. */
  static long heapShareOrBytes(String key, String text) {
    String t = text == null ? "" : text.trim();
    if (!t.endsWith("%")) {
      return bytes(key, text);
    }
    try {
      double percent = Double.parseDouble(t.substring(0, t.length() - 1).trim());
      if (percent < 0 || percent > 90) {
        throw new IllegalArgumentException(key + " = '" + text + "' must be between 0% and 90% of the heap");
      }
      return (long) (Runtime.getRuntime().maxMemory() * percent / 100);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not a size (e.g. 512MB) or a share of the heap"
          + " (e.g. 25%)");
    }
  }

  private static boolean bool(String key, String text) {
    String t = text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT);
    return switch (t) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(key + " = '" + text + "' is not a boolean: use true or false");
    };
  }

  /** A count of groups: a whole number, at least 0. */
  private static long groups(String key, String text) {
    long value;
    try {
      value = Long.parseLong(text.trim().replace("_", ""));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not a whole number");
    }
    if (value < 0) {
      throw new IllegalArgumentException(key + " = '" + text + "' must be at least 0");
    }
    return value;
  }

  private static int integer(String key, String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " = '" + text + "' is not an integer");
    }
  }

  private static String required(JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException("each auth.users entry needs '" + field + "'");
    }
    return v.asText();
  }

  private static JsonNode readYaml(Path file) {
    try {
      JsonNode node = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(file));
      return node == null || node.isMissingNode() ? JsonNodeFactory.instance.objectNode() : node;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage());
    }
  }

  private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
    if (node.isObject()) {
      ObjectNode obj = (ObjectNode) node;
      obj.properties().forEach(e -> flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(),
          e.getValue(), out));
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        flatten(prefix + "." + i, node.get(i), out);
      }
    } else if (!node.isNull()) {
      out.put(prefix, node.asText());
    }
  }
}
