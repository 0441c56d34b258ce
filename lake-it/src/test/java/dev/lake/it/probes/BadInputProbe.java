package dev.lake.it.probes;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import dev.lake.flight.auth.PasswordHasher;
import dev.lake.it.support.ServerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Probe (not a test): fires malformed and hostile requests at a real {@code bin/lake server} process — random and
 * mutated SQL, truncated and bit-flipped protobufs, garbage tickets and handles, oversized metadata, wrong
 * credentials, hostile ingests and action bodies — and reports crashes (the server process died), hangs (no answer
 * within the client deadline) and answers outside docs/design.md's status table (INTERNAL and UNKNOWN count as wrong
 * for bad input; so does a code the table does not have). Run by {@code verification/probes/bad-input.sh}. Exit code 0
 * when all three counts are zero.
 *
 * <p>Arguments: {@code --requests N} (1500; at least 1000), {@code --threads N} (4), {@code --seed N},
 * {@code --data-dir DIR}, {@code --deadline-seconds N} (30: longer is a hang).
 */
public final class BadInputProbe {
  /** docs/design.md's status table. */
  private static final Set<String> TABLE = Set.of("INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS", "UNIMPLEMENTED",
      "UNAUTHENTICATED", "PERMISSION_DENIED", "FAILED_PRECONDITION", "UNAVAILABLE", "ABORTED", "UNKNOWN",
      "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED", "CANCELLED", "INTERNAL");
  /** What bad input must never get. */
  private static final Set<String> WRONG_FOR_BAD_INPUT = Set.of("INTERNAL", "UNKNOWN");
  private static final Schema LONGS = new Schema(List.of(Field.nullable("v", new ArrowType.Int(64, true))));
  private static final String[] USERS = {"rita", "walt", "ada"};

  private final int port;
  private final long deadlineSeconds;
  private final BufferAllocator allocator = new RootAllocator();
  private final Map<String, FlightClient> clients = new ConcurrentHashMap<>();
  private final Map<String, CredentialCallOption> tokens = new ConcurrentHashMap<>();
  private final List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
  private final AtomicBoolean crashed = new AtomicBoolean();
  private volatile byte[] ritaTicket;
  private volatile byte[] waltTicket;
  private volatile byte[] ritaHandle;
  private volatile FlightDescriptor ritaPollJob;
  private volatile byte[] ritaSpoolTicket;

  /** One request: its category, a short description, and how it is sent. */
  record Request(String category, String name, Send send) {}

  @FunctionalInterface
  interface Send {
    void run() throws Exception;
  }

  /** What came back: a status code (OK for success), "HANG", "CRASH", or "CLIENT" (refused before sending). */
  record Outcome(String category, String name, String code, String detail, long millis) {
    boolean wrong() {
      return WRONG_FOR_BAD_INPUT.contains(code) || !(code.equals("OK") || code.equals("CLIENT") || code.equals("HANG")
          || code.equals("CRASH") || TABLE.contains(code));
    }
  }

  private BadInputProbe(int port, long deadlineSeconds) {
    this.port = port;
    this.deadlineSeconds = deadlineSeconds;
  }

  public static void main(String[] args) throws Exception {
    // Arrow's client logs every failed handshake at ERROR with a stack trace; the probe reports outcomes itself.
    if (org.slf4j.LoggerFactory.getLogger("org.apache.arrow.flight") instanceof ch.qos.logback.classic.Logger l) {
      l.setLevel(ch.qos.logback.classic.Level.OFF);
    }
    Map<String, String> opts = new TreeMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int requests = Integer.parseInt(opts.getOrDefault("requests", "1500"));
    int threads = Integer.parseInt(opts.getOrDefault("threads", "4"));
    long seed = Long.parseLong(opts.getOrDefault("seed", Long.toString(System.nanoTime())));
    long deadline = Long.parseLong(opts.getOrDefault("deadline-seconds", "30"));
    Path dataDir = opts.containsKey("data-dir") ? Path.of(opts.get("data-dir"))
        : Files.createTempDirectory("lake-bad-input");
    if (requests < 1000) {
      throw new IllegalArgumentException("--requests must be at least 1000");
    }
    System.exit(run(requests, threads, seed, deadline, dataDir));
  }

  static int run(int requests, int threads, long seed, long deadline, Path dataDir) throws Exception {
    Files.createDirectories(dataDir);
    Path config = dataDir.resolveSibling(dataDir.getFileName() + "-lake.yaml");
    PasswordHasher hasher = new PasswordHasher();
    StringBuilder yaml = new StringBuilder("auth:\n  users:\n");
    String[] roles = {"reader", "writer", "admin"};
    for (int i = 0; i < USERS.length; i++) {
      yaml.append("    - name: ").append(USERS[i]).append("\n      password-hash: \"")
          .append(hasher.hash((USERS[i] + "-pw").toCharArray())).append("\"\n      role: ").append(roles[i])
          .append('\n');
    }
    yaml.append("query:\n  timeout: 20s\n  max-concurrent: 8\n  max-queued: 32\n");
    Files.writeString(config, yaml);
    System.out.printf("bad-input probe: requests=%d threads=%d seed=%d deadline=%ds dataDir=%s%n", requests,
        threads, seed, deadline, dataDir);
    try (ServerProcess server = ServerProcess.start("--port", "0", "--data-dir", dataDir.toString(), "--config",
        config.toString())) {
      System.out.printf("server: bin/lake server pid=%d port=%d%n", server.process().pid(), server.port());
      BadInputProbe probe = new BadInputProbe(server.port(), deadline);
      int code;
      try {
        probe.setUp();
        List<Request> plan = probe.plan(requests, new SplittableRandom(seed));
        long started = System.nanoTime();
        probe.fire(plan, threads, server.process());
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        boolean healthy = !probe.crashed.get() && probe.healthy();
        code = probe.report(elapsed, healthy);
      } finally {
        probe.close();
      }
      if (server.process().isAlive()) {
        int exit = server.stop();
        System.out.printf("server stopped with SIGTERM: exit %d%n", exit);
        if (exit != 0) {
          System.out.println("FAIL: the server did not stop cleanly");
          code = 1;
        }
      }
      return code;
    }
  }

  // ---------------------------------------------------------------- set-up

  private FlightClient client(String user) {
    return clients.computeIfAbsent(user, u -> FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1",
        port)).build());
  }

  private CallOption[] as(String user) {
    CredentialCallOption token = tokens.computeIfAbsent(user, u -> client(u).authenticateBasicToken(u, u + "-pw")
        .orElseThrow());
    return new CallOption[] {token, CallOptions.timeout(deadlineSeconds, TimeUnit.SECONDS)};
  }

  private CallOption[] raw(CallHeaders headers) {
    return new CallOption[] {new HeaderCallOption(headers), CallOptions.timeout(deadlineSeconds, TimeUnit.SECONDS)};
  }

  private void setUp() throws Exception {
    FlightSqlClient walt = new FlightSqlClient(client("walt"));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(LONGS, allocator)) {
      root.allocateNew();
      BigIntVector v = (BigIntVector) root.getVector(0);
      for (int i = 0; i < 5000; i++) {
        v.setSafe(i, i);
      }
      root.setRowCount(5000);
      for (String table : List.of("t", "u")) {
        walt.executeIngest(root, new FlightSqlClient.ExecuteIngestOptions(table, TableDefinitionOptions.newBuilder()
            .setIfNotExist(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE)
            .setIfExists(TableExistsOption.TABLE_EXISTS_OPTION_REPLACE).build(), null, null, Map.of()), as("walt"));
      }
    }
    FlightSqlClient rita = new FlightSqlClient(client("rita"));
    ritaTicket = rita.execute("SELECT v FROM t", as("rita")).getEndpoints().get(0).getTicket().getBytes();
    waltTicket = walt.execute("SELECT v FROM t", as("walt")).getEndpoints().get(0).getTicket().getBytes();
    FlightSql.ActionCreatePreparedStatementRequest prepare = FlightSql.ActionCreatePreparedStatementRequest
        .newBuilder().setQuery("SELECT v FROM t WHERE v > ?").build();
    var results = client("rita").doAction(new Action(FlightSqlUtilsTypes.CREATE_PREPARED, Any.pack(prepare)
        .toByteArray()), as("rita"));
    FlightSql.ActionCreatePreparedStatementResult created = Any.parseFrom(results.next().getBody())
        .unpack(FlightSql.ActionCreatePreparedStatementResult.class);
    results.forEachRemaining(r -> {});
    ritaHandle = created.getPreparedStatementHandle().toByteArray();
    FlightDescriptor query = FlightDescriptor.command(Any.pack(FlightSql.CommandStatementQuery.newBuilder()
        .setQuery("SELECT v FROM t").build()).toByteArray());
    PollInfo poll = client("rita").pollInfo(query, as("rita"));
    ritaPollJob = poll.getFlightDescriptor().orElseThrow();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (poll.getFlightDescriptor().isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      poll = client("rita").pollInfo(poll.getFlightDescriptor().get(), as("rita"));
    }
    ritaSpoolTicket = poll.getFlightInfo().getEndpoints().get(0).getTicket().getBytes();
    System.out.println("set-up: tables t and u (5000 rows each), a ticket, a prepared statement, a spooled result");
  }

  /** The Flight SQL action type names. */
  private static final class FlightSqlUtilsTypes {
    static final String CREATE_PREPARED = "CreatePreparedStatement";
    static final String CLOSE_PREPARED = "ClosePreparedStatement";
  }

  // ---------------------------------------------------------------- the requests

  private List<Request> plan(int total, SplittableRandom random) {
    List<Request> out = new ArrayList<>();
    // shares of the total: random SQL 30%, protobufs 20%, tickets 15%, metadata 8%, auth 12%, actions 8%, ingest 7%
    int[] shares = {30, 20, 15, 8, 12, 8, 7};
    String[] names = {"random-sql", "truncated-protobuf", "garbage-ticket", "oversized-metadata", "wrong-auth",
        "hostile-action", "hostile-ingest"};
    for (int c = 0; c < shares.length; c++) {
      int n = (int) Math.ceil(total * shares[c] / 100.0);
      for (int i = 0; i < n; i++) {
        out.add(request(names[c], random.split()));
      }
    }
    Collections.shuffle(out, new java.util.Random(random.nextLong()));
    return out;
  }

  private Request request(String category, SplittableRandom r) {
    return switch (category) {
      case "random-sql" -> sql(r);
      case "truncated-protobuf" -> protobuf(r);
      case "garbage-ticket" -> ticket(r);
      case "oversized-metadata" -> metadata(r);
      case "wrong-auth" -> auth(r);
      case "hostile-action" -> action(r);
      default -> ingest(r);
    };
  }

  private static final String[] WORDS = {"SELECT", "FROM", "WHERE", "t", "u", "v", "GROUP", "BY", "ORDER", "HAVING",
      "JOIN", "ON", "UNION", "ALL", "WITH", "AS", "(", ")", ",", "*", "+", "-", "/", "%", "=", "<>", "<", ">", "AND",
      "OR", "NOT", "NULL", "CAST", "VARCHAR", "INTEGER", "BIGINT", "DECIMAL(38,10)", "1", "0", "-1",
      "9223372036854775807", "1e308", "'x'", "''", "'\\''", "\"t\"", "\"t@v1\"", "\"t@v0\"", "\"t@v-1\"", "?",
      "LIMIT", "OFFSET", "FETCH", "VALUES", "EXPLAIN", "PLAN", "FOR", "CASE", "WHEN", "THEN", "ELSE", "END", "IN",
      "BETWEEN", "LIKE", "'%'", "ESCAPE", "SUM", "COUNT", "AVG", "MIN", "MAX", "OVER", "PARTITION", "ROWS", "LATERAL",
      "UNNEST", "ARRAY", "MAP", "ROW", "TABLE", "DROP", "INSERT", "INTO", "DELETE", "SYSTEM_TIME", "AS OF",
      "TIMESTAMP '2026-13-45 99:99:99'", "INTERVAL '1' DAY", ";", "--", "/*", "*/", "lake.main.t", "main.u",
      "information_schema.tables", "read_parquet('s3://x/y')", "\"s3://bucket/x\"", "\"/etc/passwd\"", "1/0",
      "POWER(10, 400)", "CHAR_LENGTH", "SUBSTRING(v FROM -5 FOR -1)", "REPEAT('x', 100000000)", "\u0000", "é", "😀",
      "\uFFFF"};

  private Request sql(SplittableRandom r) {
    String text;
    int kind = r.nextInt(10);
    switch (kind) {
      case 0, 1, 2 -> {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(40);
        for (int i = 0; i < n; i++) {
          b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
        }
        text = b.toString();
      }
      case 3, 4 -> text = mutate(r, List.of("SELECT v FROM t WHERE v > 10 ORDER BY v LIMIT 5",
          "SELECT COUNT(*), SUM(v) FROM t JOIN u ON t.v = u.v", "WITH x AS (SELECT v FROM t) SELECT * FROM x",
          "SELECT v FROM \"t@v1\" UNION ALL SELECT v FROM u", "EXPLAIN PLAN FOR SELECT v FROM t",
          "SELECT CAST(v AS VARCHAR) || 'x' FROM t", "SELECT v FROM t FOR SYSTEM_TIME AS OF TIMESTAMP "
              + "'2026-01-01 00:00:00'").get(r.nextInt(7)));
      case 5 -> {
        int depth = 100 + r.nextInt(20_000);
        text = "SELECT " + "(".repeat(depth) + "1" + ")".repeat(depth);
      }
      case 6 -> {
        int depth = 50 + r.nextInt(2_000);
        text = "SELECT v FROM " + "(SELECT v FROM ".repeat(depth) + "t" + ")".repeat(depth);
      }
      case 7 -> text = switch (r.nextInt(6)) {
        case 0 -> "SELECT '" + "x".repeat(1 + r.nextInt(2_000_000)) + "'";
        case 1 -> "SELECT v FROM \"" + "t".repeat(1 + r.nextInt(200_000)) + "\"";
        case 2 -> "SELECT v FROM t WHERE v IN (" + "1,".repeat(1 + r.nextInt(50_000)) + "1)";
        case 3 -> "SELECT " + "v+".repeat(1 + r.nextInt(20_000)) + "v FROM t";
        case 4 -> "SELECT v FROM t" + " UNION ALL SELECT v FROM t".repeat(1 + r.nextInt(500));
        default -> "SELECT 1 " + "AND 1 = 1 ".repeat(1 + r.nextInt(10_000));
      };
      case 8 -> text = List.of("SELECT 1/0", "SELECT v/0 FROM t", "SELECT CAST('abc' AS INTEGER)",
          "SELECT CAST(v AS TINYINT) * 1000 FROM t", "SELECT 9223372036854775807 + v FROM t",
          "SELECT v FROM t LIMIT -1", "SELECT v FROM t LIMIT 99999999999999999999", "SELECT v FROM t OFFSET -5",
          "SELECT v FROM \"t@v99999999999999999999\"", "SELECT v FROM \"t@v999\"",
          "SELECT v FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '1970-01-01 00:00:00'",
          "SELECT v FROM t FOR SYSTEM_TIME AS OF v", "SELECT ? + ?", "SELECT v FROM t WHERE v = ?",
          "SELECT SUBSTRING('abc' FROM 2147483647)", "SELECT POWER(2, 10000) FROM t", "SELECT SQRT(-1)",
          "SELECT v FROM nosuchtable", "SELECT nosuchcolumn FROM t", "SELECT * FROM t, t, t, t",
          "SELECT LN(0)", "SELECT CAST(1e400 AS DOUBLE)", "SELECT TIMESTAMP '2026-02-30 00:00:00'",
          "SELECT DATE '0000-00-00'", "SELECT v FROM t ORDER BY 99", "SELECT MOD(v, 0) FROM t",
          "SELECT CHR(-1)", "SELECT '\u0000'", "SELECT v FROM t WHERE v LIKE '%' ESCAPE '%%'").get(r.nextInt(29));
      default -> text = randomString(r, r.nextInt(300));
    }
    String sql = text;
    int route = r.nextInt(5);
    String name = switch (route) {
      case 0 -> "GetFlightInfo+DoGet";
      case 1 -> "CreatePreparedStatement+execute";
      case 2 -> "GetSchema";
      case 3 -> "DoPut(update)";
      default -> "PollFlightInfo";
    } + ": " + abbreviate(sql);
    return new Request("random-sql", name, () -> {
      FlightClient c = client("rita");
      FlightSqlClient s = new FlightSqlClient(c);
      switch (route) {
        case 0 -> drain(c, s.execute(sql, as("rita")), as("rita"));
        case 1 -> {
          try (FlightSqlClient.PreparedStatement p = s.prepare(sql, as("rita"))) {
            drain(c, p.execute(as("rita")), as("rita"));
            p.close(as("rita"));
          }
        }
        case 2 -> s.getExecuteSchema(sql, as("rita"));
        case 3 -> s.executeUpdate(sql, as("rita"));
        default -> {
          PollInfo info = c.pollInfo(command(FlightSql.CommandStatementQuery.newBuilder().setQuery(sql).build()),
              as("rita"));
          info.getFlightDescriptor().ifPresent(d -> c.pollInfo(d, as("rita")));
        }
      }
    });
  }

  private Request protobuf(SplittableRandom r) {
    List<Message> messages = List.of(
        FlightSql.CommandStatementQuery.newBuilder().setQuery("SELECT v FROM t").build(),
        FlightSql.CommandPreparedStatementQuery.newBuilder().setPreparedStatementHandle(ByteString.copyFrom(ritaHandle))
            .build(),
        FlightSql.CommandGetTables.newBuilder().setIncludeSchema(true).setTableNameFilterPattern("%").build(),
        FlightSql.CommandGetSqlInfo.newBuilder().addInfo(0).addInfo(999_999).build(),
        FlightSql.CommandGetDbSchemas.getDefaultInstance(),
        FlightSql.CommandGetPrimaryKeys.newBuilder().setTable("t").build(),
        FlightSql.CommandGetXdbcTypeInfo.newBuilder().setDataType(12).build(),
        FlightSql.CommandStatementIngest.newBuilder().setTable("t").build(),
        FlightSql.CommandStatementUpdate.newBuilder().setQuery("DELETE FROM t").build(),
        FlightSql.TicketStatementQuery.newBuilder().setStatementHandle(ByteString.copyFrom(ritaTicket)).build());
    Message m = messages.get(r.nextInt(messages.size()));
    byte[] valid = r.nextBoolean() ? Any.pack(m).toByteArray() : m.toByteArray();
    byte[] bytes = corrupt(r, valid);
    int route = r.nextInt(6);
    String name = new String[] {"GetFlightInfo", "GetSchema", "PollFlightInfo", "DoPut", "DoGet", "DoAction body"}
        [route] + " with " + m.getDescriptorForType().getName() + " (" + bytes.length + " of " + valid.length
        + " bytes, corrupted)";
    return new Request("truncated-protobuf", name, () -> {
      FlightClient c = client("walt");
      FlightDescriptor d = FlightDescriptor.command(bytes);
      switch (route) {
        case 0 -> drain(c, c.getInfo(d, as("walt")), as("walt"));
        case 1 -> c.getSchema(d, as("walt"));
        case 2 -> c.pollInfo(d, as("walt"));
        case 3 -> put(c, d, r.nextBoolean(), as("walt"));
        case 4 -> get(c, new Ticket(bytes), as("walt"));
        default -> {
          String[] types = {"CreatePreparedStatement", "ClosePreparedStatement", "CancelFlightInfo",
              "RenewFlightEndpoint", "CancelQuery", "BeginTransaction", "EndTransaction", "SetSessionOptions",
              "GetSessionOptions", "CloseSession", "lake.status", "lake.describe_table"};
          action(c, new Action(types[r.nextInt(types.length)], bytes), as("walt"));
        }
      }
    });
  }

  private Request ticket(SplittableRandom r) {
    int kind = r.nextInt(10);
    byte[] bytes = switch (kind) {
      case 0 -> randomBytes(r, r.nextInt(64));
      case 1 -> randomBytes(r, r.nextInt(70_000));
      case 2 -> corrupt(r, ritaTicket);
      case 3 -> Any.pack(FlightSql.TicketStatementQuery.newBuilder().setStatementHandle(ByteString.copyFrom(
          corrupt(r, handleOf(ritaTicket)))).build()).toByteArray();
      case 4 -> Any.newBuilder().setTypeUrl("type.googleapis.com/arrow.flight.protocol.sql." + randomAscii(r, 20))
          .setValue(ByteString.copyFrom(randomBytes(r, 50))).build().toByteArray();
      case 5 -> concat("lake-spool:".getBytes(StandardCharsets.US_ASCII), randomBytes(r, r.nextInt(300)));
      case 6 -> corrupt(r, ritaSpoolTicket);
      case 7 -> waltTicket; // another user's genuine ticket
      case 8 -> Any.pack(FlightSql.CommandGetTables.newBuilder().setTableNameFilterPattern(randomString(r, 50))
          .setIncludeSchema(true).build()).toByteArray(); // a metadata "ticket" with a hostile pattern
      default -> concat("lake-poll:".getBytes(StandardCharsets.US_ASCII), randomBytes(r, r.nextInt(300)));
    };
    int route = r.nextInt(3);
    String name = new String[] {"DoGet", "GetFlightInfo(prepared handle)", "CancelFlightInfo"}[route] + " kind "
        + kind + " (" + bytes.length + " bytes)";
    return new Request("garbage-ticket", name, () -> {
      FlightClient c = client("rita");
      switch (route) {
        case 0 -> get(c, new Ticket(bytes), as("rita"));
        case 1 -> drain(c, c.getInfo(command(FlightSql.CommandPreparedStatementQuery.newBuilder()
            .setPreparedStatementHandle(ByteString.copyFrom(bytes)).build()), as("rita")), as("rita"));
        default -> {
          FlightInfo info = new FlightInfo(LONGS, kind == 9 ? FlightDescriptor.command(bytes)
              : FlightDescriptor.command(new byte[0]), List.of(new FlightEndpoint(new Ticket(bytes))), -1, -1);
          c.cancelFlightInfo(new CancelFlightInfoRequest(info), as("rita"));
        }
      }
    });
  }

  private Request metadata(SplittableRandom r) {
    int kind = r.nextInt(8);
    int size = new int[] {4 * 1024, 9 * 1024, 64 * 1024, 512 * 1024, 2 * 1024 * 1024}[r.nextInt(5)];
    String name = "kind " + kind + " size " + size;
    return new Request("oversized-metadata", name, () -> {
      FlightClient c = client("rita");
      CallHeaders h = new FlightCallHeaders();
      switch (kind) {
        case 0 -> {
          h.insert("authorization", "Bearer " + "A".repeat(size));
          c.listActions(raw(h)).forEach(a -> {});
        }
        case 1 -> {
          h.insert("authorization", "Basic " + Base64.getEncoder().encodeToString(("rita:" + "p".repeat(size))
              .getBytes(StandardCharsets.UTF_8)));
          c.listActions(raw(h)).forEach(a -> {});
        }
        case 2 -> {
          h.insert("x-junk", "j".repeat(size));
          CallOption[] opts = concat(as("rita"), raw(h));
          drain(c, new FlightSqlClient(c).execute("SELECT v FROM t", opts), as("rita"));
        }
        case 3 -> {
          for (int i = 0; i < Math.min(2000, size / 64); i++) {
            h.insert("x-many-" + i, "v".repeat(48));
          }
          CallOption[] opts = concat(as("rita"), raw(h));
          c.listActions(opts).forEach(a -> {});
        }
        case 4 -> action(c, new Action("lake." + "x".repeat(size), new byte[0]), as("rita"));
        case 5 -> drain(c, new FlightSqlClient(c).getTables(null, null, "%".repeat(Math.min(size, 100_000)), null,
            true, as("rita")), as("rita"));
        case 6 -> c.getInfo(FlightDescriptor.path("p".repeat(size), "q"), as("rita"));
        default -> action(c, new Action("lake.describe_table", ("{\"table\": \"" + "t".repeat(size) + "\"}")
            .getBytes(StandardCharsets.UTF_8)), as("rita"));
      }
    });
  }

  private Request auth(SplittableRandom r) {
    int kind = r.nextInt(12);
    return new Request("wrong-auth", "kind " + kind, () -> {
      FlightClient c = client("anonymous-" + (kind % 3));
      CallHeaders h = new FlightCallHeaders();
      switch (kind) {
        case 0 -> { }
        case 1 -> h.insert("authorization", "Bearer " + Base64.getUrlEncoder().encodeToString(randomBytes(r, 80)));
        case 2 -> h.insert("authorization", "Basic !!!not-base64!!!");
        case 3 -> h.insert("authorization", "Basic " + Base64.getEncoder().encodeToString("rita".getBytes(
            StandardCharsets.UTF_8)));
        case 4 -> h.insert("authorization", "Basic " + Base64.getEncoder().encodeToString("rita:wrong".getBytes(
            StandardCharsets.UTF_8)));
        case 5 -> h.insert("authorization", "Basic " + Base64.getEncoder().encodeToString("mallory:x".getBytes(
            StandardCharsets.UTF_8)));
        case 6 -> h.insert("authorization", "Digest username=rita");
        case 7 -> h.insert("authorization", "Bearer ");
        case 8 -> h.insert("authorization", "");
        case 9 -> h.insert("x-lake-verified-client-cn", "ada"); // a spoofed certificate identity
        case 10 -> {
          // a reader doing a writer's and an admin's work, with valid credentials
          FlightClient rita = client("rita");
          if (r.nextBoolean()) {
            put(rita, command(FlightSql.CommandStatementIngest.newBuilder().setTable("t")
                .setTableDefinitionOptions(TableDefinitionOptions.newBuilder()
                    .setIfExists(TableExistsOption.TABLE_EXISTS_OPTION_APPEND)).build()), true, as("rita"));
          } else {
            action(rita, new Action(r.nextBoolean() ? "lake.drop_table" : "lake.maintain_table",
                "{\"table\":\"t\"}".getBytes(StandardCharsets.UTF_8)), as("rita"));
          }
          return;
        }
        default -> {
          // another user's ticket, prepared statement and poll job
          FlightClient walt = client("walt");
          switch (r.nextInt(3)) {
            case 0 -> get(walt, new Ticket(ritaTicket), as("walt"));
            case 1 -> drain(walt, walt.getInfo(command(FlightSql.CommandPreparedStatementQuery.newBuilder()
                .setPreparedStatementHandle(ByteString.copyFrom(ritaHandle)).build()), as("walt")), as("walt"));
            default -> walt.pollInfo(ritaPollJob, as("walt"));
          }
          return;
        }
      }
      CallOption[] opts = raw(h);
      switch (r.nextInt(6)) {
        case 0 -> c.handshake(opts);
        case 1 -> c.getInfo(command(FlightSql.CommandStatementQuery.newBuilder().setQuery("SELECT 1").build()),
            opts);
        case 2 -> get(c, new Ticket(ritaTicket), opts);
        case 3 -> action(c, new Action("lake.status", "{}".getBytes(StandardCharsets.UTF_8)), opts);
        case 4 -> c.listFlights(Criteria.ALL, opts).forEach(f -> {});
        default -> put(c, command(FlightSql.CommandStatementIngest.newBuilder().setTable("t").build()), true, opts);
      }
    });
  }

  private Request action(SplittableRandom r) {
    String[] types = {"lake.drop_table", "lake.maintain_table", "lake.describe_table", "lake.status",
        "lake.nosuch", "nosuch", "", "CancelFlightInfo", "RenewFlightEndpoint", "SetSessionOptions",
        "GetSessionOptions", "CloseSession", "CreatePreparedStatement", "ClosePreparedStatement", "CancelQuery",
        "BeginTransaction", "BeginSavepoint", "CreatePreparedSubstraitPlan"};
    String type = types[r.nextInt(types.length)];
    String[] bodies = {"", "{", "[]", "null", "42", "\"t\"", "{\"table\": 42}", "{\"table\": null}",
        "{\"table\": \"../../etc\"}", "{\"table\": \"s3://bucket/x\"}", "{\"table\": \"nosuch\"}",
        "{\"table\": \"t\", \"extra\": {\"deep\": [1,2,3]}}", "{\"table\": \"" + "t".repeat(300) + "\"}",
        "{\"table\":" + "[".repeat(5000) + "]".repeat(5000) + "}"};
    boolean binary = r.nextInt(4) == 0;
    byte[] body = binary ? randomBytes(r, r.nextInt(2000)) : bodies[r.nextInt(bodies.length)].getBytes(
        StandardCharsets.UTF_8);
    String user = USERS[r.nextInt(USERS.length)];
    return new Request("hostile-action", type + " as " + user + " body " + (binary ? "binary " + body.length
        : abbreviate(new String(body, StandardCharsets.UTF_8))), () -> action(client(user), new Action(type, body),
        as(user)));
  }

  private Request ingest(SplittableRandom r) {
    int kind = r.nextInt(10);
    String[] tables = {"../x", "s3://bucket/x", "", "a b", "t;DROP", "x".repeat(200), "é", "lake.t", "CON", "nul"};
    return new Request("hostile-ingest", "kind " + kind, () -> {
      FlightClient c = client("walt");
      FlightSql.CommandStatementIngest.Builder cmd = FlightSql.CommandStatementIngest.newBuilder().setTable("probe_"
          + r.nextInt(3)).setTableDefinitionOptions(TableDefinitionOptions.newBuilder()
          .setIfNotExist(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE)
          .setIfExists(TableExistsOption.TABLE_EXISTS_OPTION_APPEND));
      Schema schema = LONGS;
      switch (kind) {
        case 0, 1 -> cmd.setTable(tables[r.nextInt(tables.length)]);
        case 2 -> cmd.setCatalog("other");
        case 3 -> cmd.setTemporary(true);
        case 4 -> cmd.setTransactionId(ByteString.copyFromUtf8("tx"));
        case 5 -> cmd.putOptions("lake.nosuch", "1");
        case 6 -> cmd.putOptions("lake.idempotency_key", "k".repeat(r.nextBoolean() ? 0 : 5000));
        case 7 -> schema = new Schema(List.of(Field.nullable("v", new ArrowType.Utf8())));
        case 8 -> schema = new Schema(List.of(Field.nullable("w", new ArrowType.Int(32, true)),
            Field.nullable("v", new ArrowType.Int(64, true))));
        default -> cmd.setTable("t").setTableDefinitionOptions(TableDefinitionOptions.newBuilder()
            .setIfNotExist(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL)
            .setIfExists(TableExistsOption.TABLE_EXISTS_OPTION_FAIL));
      }
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
        root.allocateNew();
        for (int i = 0; i < 10; i++) {
          if (root.getVector(0) instanceof BigIntVector b) {
            b.setSafe(i, i);
          } else if (root.getVector(0) instanceof VarCharVector s) {
            s.setSafe(i, ("s" + i).getBytes(StandardCharsets.UTF_8));
          } else if (root.getVector(0) instanceof IntVector n) {
            n.setSafe(i, i);
          }
        }
        root.setRowCount(10);
        SyncPutListener ack = new SyncPutListener();
        FlightClient.ClientStreamListener put = c.startPut(command(cmd.build()), root, ack, as("walt"));
        put.putNext();
        put.completed();
        put.getResult();
        ack.close();
      }
    });
  }

  // ---------------------------------------------------------------- sending

  private void fire(List<Request> plan, int threads, Process server) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "bad-input");
      t.setDaemon(true);
      return t;
    });
    AtomicLong done = new AtomicLong();
    List<Future<?>> futures = new ArrayList<>();
    for (Request request : plan) {
      futures.add(pool.submit(() -> {
        if (crashed.get()) {
          return;
        }
        long t0 = System.nanoTime();
        String code;
        String detail = "";
        try {
          request.send().run();
          code = "OK";
        } catch (Throwable t) {
          code = code(t);
          detail = message(t);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (!server.isAlive()) {
          crashed.set(true);
          code = "CRASH";
          detail = "the server process exited with " + server.exitValue();
        } else if (ms > deadlineSeconds * 1000 + 5000) {
          code = "HANG";
        }
        outcomes.add(new Outcome(request.category(), request.name(), code, detail, ms));
        long n = done.incrementAndGet();
        if (n % 250 == 0) {
          System.out.printf("  %d / %d requests%n", n, plan.size());
        }
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
  }

  /** The code lake answered with: its lake-code trailer, else the gRPC code; HANG for the client's own deadline. */
  private static String code(Throwable t) {
    Throwable e = t;
    while (e != null && !(e instanceof FlightRuntimeException)) {
      e = e.getCause();
    }
    if (e == null) {
      return t instanceof IllegalArgumentException || t instanceof IllegalStateException ? "CLIENT" : "UNKNOWN";
    }
    FlightRuntimeException f = (FlightRuntimeException) e;
    var md = f.status().metadata();
    String exact = md != null && md.keys().contains("lake-code") ? md.get("lake-code") : null;
    if (exact != null) {
      return exact;
    }
    return switch (f.status().code()) {
      case UNAUTHORIZED -> "PERMISSION_DENIED";
      case TIMED_OUT -> "HANG"; // the server's own timeout always sends lake-code; this is the client deadline
      default -> f.status().code().name();
    };
  }

  private static String message(Throwable t) {
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return m.length() > 300 ? m.substring(0, 300) + "..." : m;
  }

  private static void drain(FlightClient c, FlightInfo info, CallOption... opts) throws Exception {
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      get(c, endpoint.getTicket(), opts);
    }
  }

  private static void get(FlightClient c, Ticket ticket, CallOption... opts) throws Exception {
    try (FlightStream stream = c.getStream(ticket, opts)) {
      long rows = 0;
      while (stream.next() && rows < 10_000_000) {
        rows += stream.getRoot().getRowCount();
      }
    }
  }

  private void put(FlightClient c, FlightDescriptor d, boolean withData, CallOption... opts) throws Exception {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(LONGS, allocator)) {
      root.allocateNew();
      ((BigIntVector) root.getVector(0)).setSafe(0, 1);
      root.setRowCount(1);
      SyncPutListener ack = new SyncPutListener();
      FlightClient.ClientStreamListener put = c.startPut(d, root, ack, opts);
      if (withData) {
        put.putNext();
      }
      put.completed();
      put.getResult();
      ack.close();
    }
  }

  private static void action(FlightClient c, Action action, CallOption... opts) {
    c.doAction(action, opts).forEachRemaining(r -> {});
  }

  private static FlightDescriptor command(Message m) {
    return FlightDescriptor.command(Any.pack(m).toByteArray());
  }

  // ---------------------------------------------------------------- after

  private boolean healthy() {
    try {
      FlightClient c = client("ada");
      FlightSqlClient s = new FlightSqlClient(c);
      FlightInfo info = s.execute("SELECT COUNT(*) FROM t", as("ada"));
      long count = -1;
      try (FlightStream stream = c.getStream(info.getEndpoints().get(0).getTicket(), as("ada"))) {
        while (stream.next()) {
          if (stream.getRoot().getRowCount() > 0) {
            count = ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
          }
        }
      }
      action(c, new Action("lake.status", "{}".getBytes(StandardCharsets.UTF_8)), as("ada"));
      System.out.printf("after: the server answers (SELECT COUNT(*) FROM t = %d, lake.status ok)%n", count);
      return count >= 5000;
    } catch (Exception e) {
      System.out.println("after: the server does not answer a valid query: " + message(e));
      return false;
    }
  }

  private int report(long elapsedMs, boolean healthy) {
    List<Outcome> all = new ArrayList<>(outcomes);
    Map<String, Map<String, Integer>> byCategory = new TreeMap<>();
    for (Outcome o : all) {
      byCategory.computeIfAbsent(o.category(), k -> new TreeMap<>()).merge(o.code(), 1, Integer::sum);
    }
    System.out.printf("%n%d requests in %d ms%n", all.size(), elapsedMs);
    for (Map.Entry<String, Map<String, Integer>> e : byCategory.entrySet()) {
      int n = e.getValue().values().stream().mapToInt(Integer::intValue).sum();
      System.out.printf("  %-20s %5d  %s%n", e.getKey(), n, e.getValue());
    }
    long crashes = all.stream().filter(o -> o.code().equals("CRASH")).count() + (crashed.get() ? 0 : 0);
    long hangs = all.stream().filter(o -> o.code().equals("HANG")).count();
    List<Outcome> wrong = all.stream().filter(Outcome::wrong).toList();
    long client = all.stream().filter(o -> o.code().equals("CLIENT")).count();
    System.out.printf("%ncrashes: %d%nhangs: %d%nanswers outside the status table (INTERNAL/UNKNOWN included): %d%n",
        crashes, hangs, wrong.size());
    System.out.printf("refused by the client library before sending: %d%n", client);
    for (Outcome o : all) {
      if (o.code().equals("CRASH") || o.code().equals("HANG") || o.wrong()) {
        System.out.printf("  %s [%s] %s (%d ms): %s%n", o.code(), o.category(), o.name(), o.millis(), o.detail());
      }
    }
    if (!healthy) {
      System.out.println("FAIL: the server is not healthy after the run");
    }
    boolean ok = crashes == 0 && hangs == 0 && wrong.isEmpty() && healthy && all.size() >= 1000;
    System.out.println(ok ? "RESULT: PASS (0 crashes, 0 hangs, 0 wrong answers)" : "RESULT: FAIL");
    return ok ? 0 : 1;
  }

  private void close() {
    clients.values().forEach(c -> {
      try {
        c.close();
      } catch (Exception ignored) {
        // closing
      }
    });
    try {
      allocator.close();
    } catch (IllegalStateException leak) {
      // the Flight client library keeps buffers after calls that failed mid-stream; not the server's
    }
  }

  // ---------------------------------------------------------------- random material

  private static String mutate(SplittableRandom r, String s) {
    StringBuilder b = new StringBuilder(s);
    int edits = 1 + r.nextInt(6);
    for (int i = 0; i < edits && b.length() > 0; i++) {
      int at = r.nextInt(b.length());
      switch (r.nextInt(3)) {
        case 0 -> b.deleteCharAt(at);
        case 1 -> b.insert(at, "(),;'\"*?@/\\".charAt(r.nextInt(11)));
        default -> b.setCharAt(at, (char) (32 + r.nextInt(95)));
      }
    }
    return b.toString();
  }

  private static byte[] corrupt(SplittableRandom r, byte[] valid) {
    byte[] b;
    switch (r.nextInt(4)) {
      case 0 -> b = java.util.Arrays.copyOf(valid, valid.length == 0 ? 0 : r.nextInt(valid.length));
      case 1 -> {
        b = valid.clone();
        for (int i = 0; i < 1 + r.nextInt(4) && b.length > 0; i++) {
          b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
      }
      case 2 -> b = concat(valid, randomBytes(r, 1 + r.nextInt(64)));
      default -> {
        b = java.util.Arrays.copyOf(valid, valid.length == 0 ? 0 : r.nextInt(valid.length));
        b = concat(b, randomBytes(r, r.nextInt(32)));
      }
    }
    return b;
  }

  private static byte[] handleOf(byte[] ticket) {
    try {
      return Any.parseFrom(ticket).unpack(FlightSql.TicketStatementQuery.class).getStatementHandle().toByteArray();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] randomBytes(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  private static String randomAscii(SplittableRandom r, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append((char) ('a' + r.nextInt(26)));
    }
    return b.toString();
  }

  private static String randomString(SplittableRandom r, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(10);
      b.appendCodePoint(kind < 6 ? 32 + r.nextInt(95) : kind < 8 ? r.nextInt(0x800) : kind < 9 ? 0x1F600
          + r.nextInt(80) : r.nextInt(32));
    }
    return b.toString();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static CallOption[] concat(CallOption[] a, CallOption[] b) {
    CallOption[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static String abbreviate(String s) {
    String oneLine = s.replaceAll("[\\p{Cntrl}]", "?");
    return oneLine.length() > 80 ? oneLine.substring(0, 80) + "...(" + s.length() + " chars)" : oneLine;
  }
}
