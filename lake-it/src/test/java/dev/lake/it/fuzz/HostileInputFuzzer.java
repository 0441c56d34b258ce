package dev.lake.it.fuzz;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.RawFlight;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * lake's hostile-input fuzzer. Seeded and bounded: request {@code i} of seed {@code S} is the same request on every
 * run (its random source is derived from S and i), so a failure reproduces from {@code --seed S --only i}. It sends
 * mutated SQL (grammar-aware, {@link SqlMutator}), raw DoPut frames (garbage, truncated, reordered, oversized),
 * tickets, prepared-statement handles, session cookies, action bodies, credentials and hostile ingest schemas.
 *
 * <p>The oracle, per request: the answer is a status docs/api.md's table allows for that request class (never
 * INTERNAL or UNKNOWN for a client's input), it carries the {@code lake-code} trailer, it comes within the deadline,
 * and its message holds no server path, bucket prefix, Java class name or stack frame; a refused ingest leaves the
 * sentinel table's registered version and rows unchanged; every 50 requests (and at the end) a well-formed query
 * answers the right count. A summary by request class and the failing seeds is printed.
 */
public final class HostileInputFuzzer {
  /** The request classes and the codes each may answer. */
  static final Map<String, Set<String>> ALLOWED = Map.of(
      "sql", Set.of("OK", "INVALID_ARGUMENT", "NOT_FOUND", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED"),
      "ticket", Set.of("INVALID_ARGUMENT", "FAILED_PRECONDITION", "PERMISSION_DENIED", "NOT_FOUND", "OK"),
      "handle", Set.of("INVALID_ARGUMENT", "NOT_FOUND", "OK"),
      "action", Set.of("OK", "INVALID_ARGUMENT", "NOT_FOUND", "UNIMPLEMENTED", "PERMISSION_DENIED", "ABORTED"),
      "credentials", Set.of("UNAUTHENTICATED"),
      "cookie", Set.of("OK"),
      "frames", Set.of("INVALID_ARGUMENT", "OK", "NOT_FOUND", "ALREADY_EXISTS", "UNIMPLEMENTED",
          "PERMISSION_DENIED", "RESOURCE_EXHAUSTED"),
      "schema", Set.of("OK", "INVALID_ARGUMENT", "ALREADY_EXISTS"));
  private static final String[] CLASSES = {"sql", "sql", "sql", "ticket", "handle", "action", "credentials", "cookie",
      "frames", "frames", "schema"};
  /** What no message may hold: Java class names, stack frames, exception type names. */
  private static final Pattern INTERNALS = Pattern.compile(
      "\\b(?:java|javax|jdk|sun|org|com|io|dev|net|software)\\.[a-z_][\\w]*\\.|\\.java:\\d|\\tat |Exception\\b|"
          + "\\bat [\\w$.]+\\(");
  /** How the failed-login throttle's UNAUTHENTICATED answer begins (LoginGuard). */
  static final String THROTTLED = "too many failed logins";
  static final Schema SENTINEL = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  /** One request's outcome. */
  public record Outcome(long seed, int index, String requestClass, String name, String code, String message,
      long millis, String failure) {}

  /** What a run found. */
  public record Report(List<Outcome> outcomes, List<Outcome> failures) {
    public String summary() {
      Map<String, Map<String, Integer>> byClass = new TreeMap<>();
      for (Outcome o : outcomes) {
        byClass.computeIfAbsent(o.requestClass(), c -> new TreeMap<>()).merge(o.code(), 1, Integer::sum);
      }
      StringBuilder b = new StringBuilder("fuzz summary: ").append(outcomes.size()).append(" requests, ")
          .append(failures.size()).append(" failures\n");
      byClass.forEach((c, codes) -> b.append(String.format("  %-12s %s%n", c, codes)));
      for (Outcome f : failures.subList(0, Math.min(50, failures.size()))) {
        b.append(String.format("  FAIL seed=%d request=%d class=%s %s: %s -> %s (%s)%n", f.seed(), f.index(),
            f.requestClass(), f.name(), f.code(), f.failure(), abbreviate(f.message())));
      }
      return b.toString();
    }
  }

  /** {@code LAKE_FUZZ_TRACE=1}: print each request before it is sent (to find one that kills the server). */
  private static final boolean TRACE = System.getenv("LAKE_FUZZ_TRACE") != null;
  private final String host;
  private final int port;
  private final String user;
  private final String password;
  private final Duration deadline;
  private final List<String> secrets;
  private final FlightTestClient client;
  private final RawFlight raw;
  private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "lake-fuzz-request");
    t.setDaemon(true);
    return t;
  });
  private boolean fixedCases = true;
  private final long stopAfterStart = System.nanoTime();
  /** {@code --max-seconds}: requests stop being sent after this (the summary says how many were). */
  private long stopAfterNanos = Long.MAX_VALUE;
  private long sentinelVersion;
  private long sentinelRows;
  private byte[] goodTicket;
  private byte[] goodHandle;

  /**
   * @param secrets strings no answer may contain (the server's data directory, its bucket prefix)
   */
  public HostileInputFuzzer(String host, int port, String user, String password, Duration deadline,
      List<String> secrets) {
    this.host = host;
    this.port = port;
    this.user = user;
    this.password = password;
    this.deadline = deadline;
    this.secrets = List.copyOf(secrets);
    this.client = FlightTestClient.connect(port, user, password);
    this.raw = new RawFlight(port);
  }

  /** This fuzzer without the fixed cases (they run first, with every seed, unless a single request is asked for). */
  public HostileInputFuzzer withoutFixedCases() {
    fixedCases = false;
    return this;
  }

  /** Runs {@code requests} requests of seed {@code seed} (only request {@code only} when it is >= 0). */
  public Report run(long seed, int requests, int only) throws Exception {
    return run(seed, 0, requests, only);
  }

  /** Runs requests {@code from} to {@code requests - 1} of seed {@code seed} (only {@code only} when >= 0). */
  public Report run(long seed, int from, int requests, int only) throws Exception {
    setUp();
    List<Outcome> outcomes = new ArrayList<>();
    List<Outcome> failures = new ArrayList<>();
    if (only < 0 && fixedCases) {
      for (int k = 0; k < FIXED.size(); k++) {
        Outcome o = fixed(seed, k);
        outcomes.add(o);
        if (o.failure() != null) {
          failures.add(o);
        }
      }
      Outcome health = health(seed, -1);
      if (health != null) {
        failures.add(health);
        outcomes.add(health);
        if (health.code().equals("DOWN")) {
          return new Report(outcomes, failures);
        }
      }
    }
    for (int i = Math.max(0, from); i < requests; i++) {
      if (only >= 0 && i != only) {
        continue;
      }
      if (System.nanoTime() - stopAfterStart > stopAfterNanos) {
        System.out.println("fuzz: --max-seconds reached: stopped before request " + i);
        break;
      }
      Outcome o = one(seed, i);
      outcomes.add(o);
      if (o.failure() != null) {
        failures.add(o);
      }
      if (i % 50 == 49 || i == requests - 1) {
        Outcome health = health(seed, i);
        if (health != null) {
          failures.add(health);
          outcomes.add(health);
          if (health.code().equals("DOWN")) {
            break;
          }
        }
      }
    }
    return new Report(outcomes, failures);
  }

  private void setUp() throws Exception {
    try (VectorSchemaRoot root = rows(3)) {
      client.ingest(SqlMutator.TABLE, root, FlightTestClient.mode(
          FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
          FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_REPLACE));
    }
    try (VectorSchemaRoot root = rows(WIDE_ROWS)) {
      client.ingest(WIDE, root, FlightTestClient.mode(
          FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
          FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_REPLACE));
    }
    sentinelVersion = version();
    sentinelRows = client.count(SqlMutator.TABLE);
    FlightInfo info = client.sql().execute("SELECT id FROM " + SqlMutator.TABLE, client.auth());
    goodTicket = info.getEndpoints().get(0).getTicket().getBytes();
    try (FlightSqlClient.PreparedStatement p = client.sql().prepare("SELECT id FROM " + SqlMutator.TABLE,
        client.auth())) {
      goodHandle = handleOf(p);
      p.close(client.auth());
    }
  }

  /** The wide table of the fixed cases: one fragment of {@link #WIDE_ROWS} rows (one batch in Lance's engine). */
  static final String WIDE = "fuzz_wide";
  private static final int WIDE_ROWS = 3_200;

  /** A request an earlier run found answered wrongly, or fatally: replayed before the seeded ones on every run. */
  private record Fixed(String requestClass, String name, Request request) {}

  private interface Request {
    void send(HostileInputFuzzer f) throws Exception;
  }

  /**
   * What seed 20261202 found (against {@code bin/lake server}, 20,000 requests): request 5220, a 621,524-character
   * literal over a compacted {@code fuzz_t} of some thousand rows, aborted the server (Lance's SQL engine repeated
   * it per row of a batch past 2^31 bytes and panicked in native code); requests 168 and 2179 (Flight SQL actions
   * with an empty body), 635 ({@code VALUES} of a number and a date) and 4973 (a statement ticket cut short) answered
   * INTERNAL; 678, 1203 and 3125 (statements of 200-900 KB) were answered CANCELLED by the fuzzer's own client,
   * which tried to read results of gigabytes in one batch.
   */
  private static final List<Fixed> FIXED = List.of(
      new Fixed("sql", "fixed: SELECT '<700,000 x>' FROM " + WIDE + " (" + WIDE_ROWS + " rows)",
          f -> f.drain(f.client.sql().execute("SELECT '" + "x".repeat(700_000) + "' FROM " + WIDE,
              f.client.auth()).getEndpoints().get(0).getTicket())),
      new Fixed("sql", "fixed: SELECT name || '<4,097 x>' FROM " + WIDE,
          f -> f.drain(f.client.sql().execute("SELECT name || '" + "x".repeat(4_097) + "' FROM " + WIDE,
              f.client.auth()).getEndpoints().get(0).getTicket())),
      new Fixed("action", "fixed: action BeginTransaction, empty body", f -> f.emptyAction("BeginTransaction")),
      new Fixed("action", "fixed: action CreatePreparedStatement, empty body",
          f -> f.emptyAction("CreatePreparedStatement")),
      new Fixed("sql", "fixed: VALUES (-9223372036854775808), (DATE '2026-01-01')",
          f -> f.drain(f.client.sql().execute("VALUES (-9223372036854775808), (DATE '2026-01-01')",
              f.client.auth()).getEndpoints().get(0).getTicket())),
      new Fixed("ticket", "fixed: a statement ticket cut 5 bytes short", f -> {
        Any good = Any.parseFrom(f.goodTicket);
        byte[] value = good.getValue().toByteArray();
        f.drain(new Ticket(Any.newBuilder().setTypeUrl(good.getTypeUrl())
            .setValue(ByteString.copyFrom(value, 0, value.length - 5)).build().toByteArray()));
      }),
      new Fixed("sql", "fixed: SELECT '<885,021 x>' FROM " + WIDE,
          f -> f.drain(f.client.sql().execute("SELECT '" + "x".repeat(885_021) + "' FROM " + WIDE,
              f.client.auth()).getEndpoints().get(0).getTicket())));

  private void emptyAction(String type) {
    var results = client.flight().doAction(new Action(type, new byte[0]), client.auth());
    while (results.hasNext()) {
      results.next();
    }
  }

  /** Fixed case {@code k}, judged like the seeded requests; its index in the report is {@code -1 - k}. */
  private Outcome fixed(long seed, int k) {
    Fixed fixed = FIXED.get(k);
    if (TRACE) {
      System.out.println("fuzz request seed=" + seed + " fixed=" + k + " " + fixed.name());
      System.out.flush();
    }
    long start = System.nanoTime();
    Future<String[]> f = runner.submit(() -> {
      try {
        fixed.request().send(this);
        return new String[] {"OK", ""};
      } catch (FlightRuntimeException e) {
        return answer(e);
      }
    });
    String code;
    String message = "";
    try {
      String[] answer = f.get(deadline.toMillis() * 2, TimeUnit.MILLISECONDS);
      code = answer[0];
      message = answer[1];
    } catch (TimeoutException e) {
      f.cancel(true);
      code = "HANG";
    } catch (Exception e) {
      code = "CLIENT_ERROR";
      message = String.valueOf(e.getCause() == null ? e : e.getCause());
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (TRACE) {
      System.out.println("fuzz answered fixed=" + k + " -> " + code + " in " + millis + " ms");
    }
    return new Outcome(seed, -1 - k, fixed.requestClass(), fixed.name(), code, message, millis,
        judge(fixed.requestClass(), code, message));
  }

  private static byte[] handleOf(FlightSqlClient.PreparedStatement p) {
    try {
      var field = FlightSqlClient.PreparedStatement.class.getDeclaredField("preparedStatementResult");
      field.setAccessible(true);
      return ((FlightSql.ActionCreatePreparedStatementResult) field.get(p)).getPreparedStatementHandle()
          .toByteArray();
    } catch (ReflectiveOperationException e) {
      return "no-handle".getBytes(StandardCharsets.UTF_8);
    }
  }

  private VectorSchemaRoot rows(int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SENTINEL, client.allocator());
    for (int i = 0; i < n; i++) {
      ((BigIntVector) root.getVector(0)).setSafe(i, i);
      ((VarCharVector) root.getVector(1)).setSafe(i, ("r" + i).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(n);
    return root;
  }

  private long version() throws Exception {
    String json = action("lake.describe_table", "{\"table\": \"" + SqlMutator.TABLE + "\"}");
    java.util.regex.Matcher m = Pattern.compile("\"version\"\\s*:\\s*(\\d+)").matcher(json);
    if (!m.find()) {
      throw new IllegalStateException("lake.describe_table answered without a version: " + json);
    }
    return Long.parseLong(m.group(1));
  }

  private String action(String type, String body) {
    var results = client.flight().doAction(new Action(type, body.getBytes(StandardCharsets.UTF_8)), client.auth());
    StringBuilder b = new StringBuilder();
    while (results.hasNext()) {
      Result r = results.next();
      b.append(new String(r.getBody(), StandardCharsets.UTF_8));
    }
    return b.toString();
  }

  /** The random source of request {@code index} of {@code seed}. */
  static SplittableRandom random(long seed, int index) {
    return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index * 0xC2B2AE3D27D4EB4FL);
  }

  private Outcome one(long seed, int index) {
    SplittableRandom r = random(seed, index);
    String requestClass = CLASSES[r.nextInt(CLASSES.length)];
    if (requestClass.equals("frames") || requestClass.equals("schema")) {
      try {
        sentinelVersion = version(); // actions (lake.maintain_table) may have moved it legitimately
      } catch (Exception e) {
        return new Outcome(seed, index, requestClass, requestClass, "DOWN", String.valueOf(e), 0,
            "the table could not be described before the request: " + e);
      }
    }
    String[] name = {requestClass};
    long start = System.nanoTime();
    String code;
    String message = "";
    Future<String[]> f = runner.submit(() -> send(seed, index, requestClass, r, name));
    try {
      String[] answer = f.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
      code = answer[0];
      message = answer[1];
    } catch (TimeoutException e) {
      f.cancel(true);
      code = "HANG";
    } catch (Exception e) {
      code = "CLIENT_ERROR";
      message = String.valueOf(e.getCause() == null ? e : e.getCause());
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (TRACE) {
      System.out.println("fuzz answered index=" + index + " " + abbreviate(name[0]) + " -> " + code);
    }
    String failure = judge(requestClass, code, message);
    if (failure == null && (requestClass.equals("frames") || requestClass.equals("schema"))) {
      failure = sentinelUnchanged(requestClass, code);
    }
    return new Outcome(seed, index, requestClass, name[0], code, message, millis, failure);
  }

  private String judge(String requestClass, String code, String message) {
    if (code.equals("HANG")) {
      return "no answer within " + deadline.toMillis() + " ms";
    }
    if (code.startsWith("NO_TRAILER:")) {
      return "the answer " + code.substring(11) + " has no lake-code trailer (not through lake's error mapping)";
    }
    if (code.equals("UNAUTHENTICATED") && message != null && message.startsWith(THROTTLED)) {
      // the failed-login throttle of this address (docs/api.md, "Failed logins"): the fuzzer's bad credentials
      // come from the same address as its good requests, which may log in again (a new connection, an expired token)
      return null;
    }
    if (!ALLOWED.get(requestClass).contains(code)) {
      return code + " is not an answer docs/api.md allows for " + requestClass;
    }
    String leak = leak(message);
    return leak == null ? null : "the message leaks " + leak;
  }

  /** What of the server's internals {@code message} holds, or null. */
  String leak(String message) {
    if (message == null || message.isEmpty()) {
      return null;
    }
    for (String secret : secrets) {
      if (!secret.isEmpty() && message.contains(secret)) {
        return "a server path or prefix ('" + secret + "')";
      }
    }
    java.util.regex.Matcher m = INTERNALS.matcher(message);
    return m.find() ? "'" + m.group() + "' (a class name, exception or stack frame)" : null;
  }

  private String sentinelUnchanged(String requestClass, String code) {
    try {
      long v = version();
      if (code.equals("OK")) {
        sentinelVersion = v;
        sentinelRows = client.count(SqlMutator.TABLE);
        return null;
      }
      if (v != sentinelVersion) {
        return "a refused " + requestClass + " request changed the table's version from " + sentinelVersion
            + " to " + v;
      }
      return null;
    } catch (Exception e) {
      return "the table could not be read after the request: " + e;
    }
  }

  private Outcome health(long seed, int index) {
    Future<Long> f = runner.submit(() -> client.count(SqlMutator.TABLE));
    try {
      long rows = f.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
      if (rows != sentinelRows) {
        return new Outcome(seed, index, "health", "count", "WRONG", "", 0, "the table holds " + rows
            + " rows, expected " + sentinelRows);
      }
      return null;
    } catch (Exception e) {
      f.cancel(true);
      return new Outcome(seed, index, "health", "count", "DOWN", String.valueOf(e), 0,
          "a well-formed query failed after request " + index + ": " + e);
    }
  }

  // ---- the request classes ----

  private String[] send(long seed, int index, String requestClass, SplittableRandom r, String[] name)
      throws Exception {
    try {
      if (TRACE) {
        System.out.println("fuzz request seed=" + seed + " index=" + index + " class=" + requestClass);
        System.out.flush();
      }
      switch (requestClass) {
        case "sql" -> sql(r, name);
        case "ticket" -> ticket(r, name);
        case "handle" -> handle(r, name);
        case "action" -> action(r, name);
        case "credentials" -> credentials(r, name);
        case "cookie" -> cookie(r, name);
        case "frames" -> {
          return frames(r, name);
        }
        default -> schema(r, name);
      }
      return new String[] {"OK", ""};
    } catch (FlightRuntimeException e) {
      return answer(e);
    }
  }

  private static String[] answer(FlightRuntimeException e) {
    var md = e.status().metadata();
    String lake = md != null && md.keys().contains("lake-code") ? md.get("lake-code") : null;
    String message = String.valueOf(e.status().description());
    if (lake == null) {
      return new String[] {"NO_TRAILER:" + e.status().code(), message};
    }
    return new String[] {lake, message};
  }

  private void sql(SplittableRandom r, String[] name) throws Exception {
    String sql = SqlMutator.statement(r);
    name[0] = "sql " + abbreviate(sql);
    if (r.nextBoolean()) {
      FlightInfo info = client.sql().execute(sql, client.auth());
      drain(info.getEndpoints().get(0).getTicket());
    } else {
      try (FlightSqlClient.PreparedStatement p = client.sql().prepare(sql, client.auth())) {
        FlightInfo info = p.execute(client.auth());
        drain(info.getEndpoints().get(0).getTicket());
        p.close(client.auth());
      }
    }
  }

  /**
   * Reads a result far enough to judge it: up to 1,000 batches or {@link #DRAIN_BYTES}, then cancels. A statement
   * that asks for gigabytes ({@code SELECT '<900 KB>' FROM fuzz_t} over thousands of rows) is answered correctly by
   * streaming them; reading all of them would only measure the loopback.
   */
  private void drain(Ticket ticket) throws Exception {
    try (FlightStream s = client.flight().getStream(ticket, client.auth())) {
      int batches = 0;
      long bytes = 0;
      while (s.next()) {
        for (var v : s.getRoot().getFieldVectors()) {
          bytes += v.getBufferSize();
        }
        if (++batches >= 1_000 || bytes >= DRAIN_BYTES) {
          s.cancel("the fuzzer read enough", null);
          break;
        }
      }
    }
  }

  private static final long DRAIN_BYTES = 256L << 20;

  private void ticket(SplittableRandom r, String[] name) throws Exception {
    byte[] bytes = mutate(goodTicket, r);
    name[0] = "ticket of " + bytes.length + " bytes";
    drain(new Ticket(bytes));
  }

  private void handle(SplittableRandom r, String[] name) {
    byte[] bytes = mutate(goodHandle, r);
    name[0] = "handle of " + bytes.length + " bytes";
    FlightSql.CommandPreparedStatementQuery q = FlightSql.CommandPreparedStatementQuery.newBuilder()
        .setPreparedStatementHandle(ByteString.copyFrom(bytes)).build();
    client.flight().getInfo(FlightDescriptor.command(Any.pack(q).toByteArray()), client.auth());
  }

  private static byte[] mutate(byte[] good, SplittableRandom r) {
    byte[] b;
    switch (r.nextInt(5)) {
      case 0 -> b = RawFlight.garbage(r.nextLong(), r.nextInt(200));
      case 1 -> b = java.util.Arrays.copyOf(good, r.nextInt(Math.max(1, good.length)));
      case 2 -> {
        b = good.clone();
        if (b.length > 0) {
          b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
      }
      case 3 -> {
        b = java.util.Arrays.copyOf(good, good.length + 1 + r.nextInt(100));
      }
      default -> b = Any.pack(FlightSql.CommandGetCatalogs.getDefaultInstance()).toByteArray();
    }
    return b;
  }

  private static final String[] ACTIONS = {"lake.describe_table", "lake.status", "lake.drop_table",
      "lake.maintain_table", "lake.pin_snapshot", "CancelFlightInfo", "CreatePreparedStatement",
      "ClosePreparedStatement", "SetSessionOptions", "GetSessionOptions", "CloseSession", "BeginTransaction",
      "lake.nope", "", "\n", "x".repeat(3000), "renew"};
  private static final String[] BODIES = {"{}", "{\"table\": \"nope\"}", "{\"table\": \"fuzz_t\"}",
      "{\"table\": \"../../etc\"}", "{\"table\": 1}", "{\"table\": null}", "[]", "null", "{", "\u0000\u00ff", "",
      "{\"table\": \"" + "t".repeat(5000) + "\"}", "{\"table\": \"a\\nb\"}", "{\"table\": {\"x\": [1, 2]}}"};

  private void action(SplittableRandom r, String[] name) {
    String type = ACTIONS[r.nextInt(ACTIONS.length)];
    String body = BODIES[r.nextInt(BODIES.length)];
    if (type.equals("lake.drop_table") && body.contains("fuzz_t")) {
      body = "{\"table\": \"fuzz_nope\"}"; // never drop the sentinel
    }
    byte[] bytes = r.nextInt(4) == 0 ? RawFlight.garbage(r.nextLong(), r.nextInt(300))
        : body.getBytes(StandardCharsets.UTF_8);
    name[0] = "action " + abbreviate(type) + " " + abbreviate(body);
    var results = client.flight().doAction(new Action(type, bytes), client.auth());
    while (results.hasNext()) {
      results.next();
    }
  }

  private void credentials(SplittableRandom r, String[] name) {
    String[] values = {"Basic " + Base64.getEncoder().encodeToString((user + ":wrong").getBytes()),
        "Basic " + Base64.getEncoder().encodeToString("nobody:x".getBytes()), "Basic !!!", "Bearer x",
        "Bearer " + Base64.getEncoder().encodeToString(RawFlight.garbage(r.nextLong(), 64)), "Digest x", "",
        "Basic " + Base64.getEncoder().encodeToString((user + ":" + "p".repeat(4000)).getBytes()),
        "Bearer " + "A".repeat(6000)};
    String value = values[r.nextInt(values.length)];
    name[0] = "credentials " + abbreviate(value);
    CallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", value);
    try (var anonymous = org.apache.arrow.flight.FlightClient.builder(client.allocator(),
        org.apache.arrow.flight.Location.forGrpcInsecure(host, port)).build()) {
      anonymous.getInfo(FlightDescriptor.command(Any.pack(FlightSql.CommandGetCatalogs.getDefaultInstance())
          .toByteArray()), new HeaderCallOption(headers));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void cookie(SplittableRandom r, String[] name) {
    String value = "arrow_flight_session_id=" + switch (r.nextInt(4)) {
      case 0 -> Base64.getUrlEncoder().encodeToString(RawFlight.garbage(r.nextLong(), 80));
      case 1 -> "x".repeat(2000);
      case 2 -> "\u0000;\r\nX-Forged: 1";
      default -> "";
    };
    name[0] = "cookie " + abbreviate(value);
    CallHeaders headers = new FlightCallHeaders();
    headers.insert("cookie", value.replaceAll("[\\r\\n\\u0000]", "_"));
    client.flight().getInfo(FlightDescriptor.command(Any.pack(FlightSql.CommandGetCatalogs.getDefaultInstance())
        .toByteArray()), client.auth(), new HeaderCallOption(headers));
  }

  private String[] frames(SplittableRandom r, String[] name) {
    Flight.FlightDescriptor append = RawFlight.ingest(SqlMutator.TABLE, FlightTestClient.append());
    List<byte[]> messages = new ArrayList<>();
    try (VectorSchemaRoot root = rows(1 + r.nextInt(50))) {
      Flight.FlightData schema = RawFlight.schema(SENTINEL, append);
      Flight.FlightData batch = RawFlight.batch(root);
      int kind = r.nextInt(10);
      name[0] = "frames " + kind;
      switch (kind) {
        case 0 -> messages.add(RawFlight.garbage(r.nextLong(), 1 + r.nextInt(500)));
        case 1 -> messages.addAll(RawFlight.bytes(schema, RawFlight.truncated(batch,
            r.nextInt(Math.max(1, batch.getDataBody().size())))));
        case 2 -> messages.addAll(RawFlight.bytes(batch.toBuilder().setFlightDescriptor(append).build()));
        case 3 -> messages.addAll(RawFlight.bytes(schema, batch, schema));
        case 4 -> {
          byte[] header = batch.getDataHeader().toByteArray();
          header[r.nextInt(header.length)] ^= (byte) (1 << r.nextInt(8));
          messages.addAll(RawFlight.bytes(schema, batch.toBuilder().setDataHeader(ByteString.copyFrom(header))
              .build()));
        }
        case 5 -> messages.addAll(RawFlight.bytes(schema, batch.toBuilder()
            .setAppMetadata(ByteString.copyFrom(new byte[1 + r.nextInt(3_000_000)])).build()));
        case 6 -> messages.addAll(RawFlight.bytes(RawFlight.schema(SENTINEL, RawFlight.ingest("fuzz_" + r.nextInt(9)
            + "\u0000", FlightTestClient.append())), batch));
        case 7 -> {
          Flight.FlightDescriptor wrong = Flight.FlightDescriptor.newBuilder()
              .setType(Flight.FlightDescriptor.DescriptorType.CMD).setCmd(ByteString.copyFrom(Any.pack(
                  FlightSql.CommandStatementQuery.newBuilder().setQuery("SELECT 1").build()).toByteArray())).build();
          messages.addAll(RawFlight.bytes(RawFlight.schema(SENTINEL, wrong), batch));
        }
        case 8 -> {
          byte[] body = batch.getDataBody().toByteArray();
          for (int k = 0; k < 1 + r.nextInt(8); k++) {
            body[r.nextInt(body.length)] = (byte) r.nextInt(256);
          }
          messages.addAll(RawFlight.bytes(schema, batch.toBuilder().setDataBody(ByteString.copyFrom(body)).build()));
        }
        default -> messages.addAll(RawFlight.bytes(batch, schema));
      }
    }
    // the client's bearer token, not a login per call: the fuzzer's bad credentials throttle this address's logins
    RawFlight.Answer a = raw.put(client.authorization(), messages, true, deadline);
    if (a.timedOut()) {
      return new String[] {"HANG", a.message()};
    }
    if (!a.code().equals("OK") && (a.lakeCode() == null || !a.lakeCode().equals(a.code()))) {
      return new String[] {"NO_TRAILER:" + a.code(), a.message()};
    }
    return new String[] {a.code(), a.message()};
  }

  private void schema(SplittableRandom r, String[] name) {
    List<Field> fields = new ArrayList<>();
    int kind = r.nextInt(8);
    switch (kind) {
      case 0 -> fields.add(Field.nullable("c".repeat(1 + r.nextInt(100_000)), new ArrowType.Int(64, true)));
      case 1 -> fields.add(Field.nullable("a\nb\u0000c", new ArrowType.Int(64, true)));
      case 2 -> {
        fields.add(Field.nullable("dup", new ArrowType.Int(64, true)));
        fields.add(Field.nullable("DUP", new ArrowType.Int(64, true)));
      }
      case 3 -> {
        for (int i = 0; i < 1 + r.nextInt(3_000); i++) {
          fields.add(Field.nullable("c" + i, new ArrowType.Int(32, true)));
        }
      }
      case 4 -> fields.add(Field.nullable("", ArrowType.Utf8.INSTANCE));
      case 5 -> fields.add(new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE),
          List.of(Field.nullable("x", new ArrowType.Int(8, true)))));
      case 6 -> fields.add(Field.nullable("\ud83d\ude00\u00e9", new ArrowType.FloatingPoint(
          org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)));
      default -> fields.add(Field.nullable("d", new ArrowType.Duration(org.apache.arrow.vector.types.TimeUnit.SECOND)));
    }
    String table = r.nextInt(4) == 0 ? "fuzz_t" : "fuzz_s" + r.nextInt(5);
    name[0] = "schema " + kind + " into " + table;
    try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), client.allocator())) {
      root.allocateNew();
      root.setRowCount(0);
      client.ingest(table, root, table.equals("fuzz_t") ? FlightTestClient.append() : FlightTestClient.mode(
          FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
          FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_REPLACE));
    }
  }

  static String abbreviate(String s) {
    String one = s == null ? "null" : s.replaceAll("[\\p{Cntrl}]", "?");
    return one.length() <= 80 ? one : one.substring(0, 80) + "...(" + one.length() + " chars)";
  }

  public void close() throws Exception {
    runner.shutdownNow();
    raw.close();
    client.close();
  }

  /**
   * {@code bin/lake fuzz --requests N --seed S [--url grpc://HOST:PORT] [--user U --password P]
   * [--deadline-seconds D] [--secret PATH_OR_PREFIX]... [--only I] [--from I] [--max-seconds T]}: exit code 0 when
   * nothing was found
   * ({@code --from I} skips requests before {@code I}: each request depends only on the seed and its index).
   */
  public static void main(String[] args) throws Exception {
    if (org.slf4j.LoggerFactory.getLogger("org.apache.arrow") instanceof ch.qos.logback.classic.Logger l) {
      l.setLevel(ch.qos.logback.classic.Level.OFF);
    }
    Map<String, String> opts = new TreeMap<>();
    List<String> secrets = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--help") || args[i].equals("-h")) {
        System.out.println("usage: bin/lake fuzz [--requests N] [--seed S] [--url grpc://HOST:PORT] [--user U] "
            + "[--password P] [--deadline-seconds D] [--secret TEXT]... [--only I] [--from I] [--max-seconds T]");
        return;
      }
      if (i + 1 >= args.length || !args[i].startsWith("--")) {
        System.err.println("lake fuzz: bad argument '" + args[i] + "' (--help lists the options)");
        System.exit(2);
      }
      if (args[i].equals("--secret")) {
        secrets.add(args[++i]);
      } else {
        opts.put(args[i].substring(2), args[++i]);
      }
    }
    String url = opts.getOrDefault("url", "grpc://127.0.0.1:32010");
    java.net.URI uri = java.net.URI.create(url.replace("grpc+tcp://", "grpc://"));
    int requests = Integer.parseInt(opts.getOrDefault("requests", "2000"));
    long seed = Long.parseLong(opts.getOrDefault("seed", "1"));
    int only = Integer.parseInt(opts.getOrDefault("only", "-1"));
    int from = Integer.parseInt(opts.getOrDefault("from", "0"));
    Duration deadline = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("deadline-seconds", "30")));
    String user = opts.getOrDefault("user", System.getenv().getOrDefault("LAKE_USER", "lake"));
    String password = opts.getOrDefault("password", System.getenv().getOrDefault("LAKE_PASSWORD", "lake"));
    HostileInputFuzzer fuzzer = new HostileInputFuzzer(uri.getHost(), uri.getPort(), user, password, deadline,
        secrets);
    if (opts.containsKey("max-seconds")) {
      fuzzer.stopAfterNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(opts.get("max-seconds")));
    }
    long start = System.nanoTime();
    Report report = fuzzer.run(seed, from, requests, only);
    fuzzer.close();
    System.out.print(report.summary());
    System.out.printf("seed=%d requests=%d in %.1f s%n", seed, requests, (System.nanoTime() - start) / 1e9);
    System.exit(report.failures().isEmpty() ? 0 : 1);
  }
}
