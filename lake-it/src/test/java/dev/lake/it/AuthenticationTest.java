package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.it.support.AdminClient;
import dev.lake.it.support.ConfiguredServer;
import dev.lake.it.support.ConfiguredServer.TestUser;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.MutableClock;
import dev.lake.it.support.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10: authentication on every RPC, roles, and tickets bound to their user. */
class AuthenticationTest {
  private static final List<TestUser> USERS = List.of(
      new TestUser("rita", "rita-pw", "reader"),
      new TestUser("walt", "walt-pw", "writer"),
      new TestUser("ada", "ada-pw", "admin"));

  @TempDir
  Path dir;

  @Test
  void everyRpcRequiresAuthentication() throws Exception {
    try (ConfiguredServer server = ConfiguredServer.start(dir.resolve("data"), USERS, Map.of(), b -> {});
        BufferAllocator allocator = new RootAllocator()) {
      try (FlightTestClient walt = server.client("walt", "walt-pw")) {
        LongTable.ingest(walt, "t", 0, 10, FlightTestClient.create());
      }
      FlightDescriptor query = FlightDescriptor.command(Any.pack(FlightSql.CommandStatementQuery.newBuilder()
          .setQuery("SELECT v FROM t").build()).toByteArray());
      FlightDescriptor ingest = FlightDescriptor.command(Any.pack(FlightSql.CommandStatementIngest.newBuilder()
          .setTable("t").build()).toByteArray());
      Map<String, Consumer<FlightClient>> rpcs = new LinkedHashMap<>();
      rpcs.put("Handshake", FlightClient::handshake);
      rpcs.put("GetFlightInfo", c -> c.getInfo(query));
      rpcs.put("GetSchema", c -> c.getSchema(query));
      rpcs.put("PollFlightInfo", c -> c.pollInfo(query));
      rpcs.put("DoGet", c -> {
        try (FlightStream stream = c.getStream(new Ticket("any".getBytes(StandardCharsets.UTF_8)))) {
          stream.next();
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      rpcs.put("DoPut", c -> {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(LongTable.SCHEMA, allocator)) {
          SyncPutListener ack = new SyncPutListener();
          FlightClient.ClientStreamListener put = c.startPut(ingest, root, ack);
          put.completed();
          put.getResult();
        }
      });
      rpcs.put("DoAction", c -> c.doAction(new Action("lake.status", "{}".getBytes(StandardCharsets.UTF_8)))
          .forEachRemaining(r -> {}));
      rpcs.put("ListActions", c -> c.listActions().forEach(a -> {}));
      rpcs.put("ListFlights", c -> c.listFlights(Criteria.ALL).forEach(f -> {}));
      rpcs.put("DoExchange", c -> {
        try (FlightClient.ExchangeReaderWriter exchange = c.doExchange(query)) {
          exchange.getReader().next();
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });

      HeaderCallOption wrongPassword = basic("rita", "not-her-password");
      HeaderCallOption unknownUser = basic("mallory", "x");
      HeaderCallOption forgedToken = bearer(Base64.getUrlEncoder().withoutPadding()
          .encodeToString(new byte[64]));
      Map<String, String> answers = new LinkedHashMap<>();
      try (FlightClient anonymous = server.anonymous(allocator)) {
        for (Map.Entry<String, Consumer<FlightClient>> rpc : rpcs.entrySet()) {
          Throwable failure = catchThrowable(() -> rpc.getValue().accept(anonymous));
          answers.put(rpc.getKey() + " without credentials", failure == null ? "OK" : Status.code(failure));
        }
        for (Map.Entry<String, HeaderCallOption> bad : Map.of("wrong password", wrongPassword, "unknown user",
            unknownUser, "forged bearer token", forgedToken).entrySet()) {
          Throwable failure = catchThrowable(() -> anonymous.getInfo(query, bad.getValue()));
          answers.put("GetFlightInfo with " + bad.getKey(), failure == null ? "OK" : Status.code(failure));
        }
      }
      assertThat(answers).hasSize(13).allSatisfy((rpc, code) -> assertThat(code).as(rpc)
          .isEqualTo("UNAUTHENTICATED"));

      // and the same calls with credentials are answered (the data is there)
      try (FlightTestClient rita = server.client("rita", "rita-pw")) {
        assertThat(rita.count("t")).isEqualTo(10);
      }
    }
  }

  @Test
  void rolesGateIngestAndAdminActions() throws Exception {
    try (ConfiguredServer server = ConfiguredServer.start(dir.resolve("data"), USERS, Map.of(), b -> {});
        FlightTestClient rita = server.client("rita", "rita-pw");
        FlightTestClient walt = server.client("walt", "walt-pw");
        FlightTestClient ada = server.client("ada", "ada-pw")) {
      // ingest needs writer
      Throwable readerIngest = catchThrowable(() -> LongTable.ingest(rita, "t", 0, 5, FlightTestClient.create()));
      assertThat(Status.code(readerIngest)).isEqualTo("PERMISSION_DENIED");
      assertThat(readerIngest).hasMessageContaining("rita").hasMessageContaining("needs role writer");
      assertThat(LongTable.ingest(walt, "t", 0, 5, FlightTestClient.create())).isEqualTo(5);
      assertThat(LongTable.ingest(ada, "t", 5, 5, FlightTestClient.append())).isEqualTo(5);

      // everyone reads, describes and asks for status
      assertThat(rita.count("t")).isEqualTo(10);
      assertThat(AdminClient.describe(rita, "t").path("table").asText()).isEqualTo("t");
      assertThat(AdminClient.action(rita, "lake.status", "{}").has("node")).isTrue();

      // maintenance and drop need admin
      for (FlightTestClient notAdmin : List.of(rita, walt)) {
        Throwable maintain = catchThrowable(() -> AdminClient.maintain(notAdmin, "t"));
        assertThat(Status.code(maintain)).isEqualTo("PERMISSION_DENIED");
        assertThat(maintain).hasMessageContaining("needs role admin");
        Throwable drop = catchThrowable(() -> AdminClient.drop(notAdmin, "t"));
        assertThat(Status.code(drop)).isEqualTo("PERMISSION_DENIED");
      }
      assertThat(walt.count("t")).as("a refused drop removed nothing").isEqualTo(10);
      assertThat(AdminClient.maintain(ada, "t").path("table").asText()).isEqualTo("t");
      assertThat(AdminClient.drop(ada, "t").path("table").asText()).isEqualTo("t");
      assertThat(Status.code(catchThrowable(() -> rita.count("t")))).isEqualTo("NOT_FOUND");
    }
  }

  @Test
  void forgedExpiredOrForeignTicketsAreRefused() throws Exception {
    MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    try (ConfiguredServer server = ConfiguredServer.start(dir.resolve("data"), USERS,
            Map.of("query.ticket-lifetime", "5m"), b -> b.clock(clock));
        ConfiguredServer otherCluster = ConfiguredServer.start(dir.resolve("other"), USERS, Map.of(), b -> {});
        FlightTestClient rita = server.client("rita", "rita-pw");
        FlightTestClient walt = server.client("walt", "walt-pw");
        FlightTestClient ritaElsewhere = otherCluster.client("rita", "rita-pw")) {
      LongTable.ingest(walt, "t", 0, 10, FlightTestClient.create());
      try (FlightTestClient waltElsewhere = otherCluster.client("walt", "walt-pw")) {
        LongTable.ingest(waltElsewhere, "t", 0, 10, FlightTestClient.create());
      }
      Ticket ticket = rita.sql().execute("SELECT v FROM t", rita.auth()).getEndpoints().get(0).getTicket();
      assertThat(rows(rita, ticket)).as("the genuine ticket works for its owner").isEqualTo(10);

      Map<String, Ticket> forged = new LinkedHashMap<>();
      forged.put("garbage bytes", new Ticket(new byte[] {1, 2, 3, 4}));
      forged.put("not a Flight SQL ticket", new Ticket(Any.newBuilder().setTypeUrl("type.googleapis.com/evil.Cmd")
          .setValue(ByteString.copyFromUtf8("x")).build().toByteArray()));
      forged.put("empty statement handle", wrap(new byte[0]));
      forged.put("a byte flipped in the signed body", wrap(flip(handle(ticket), handle(ticket).length - 3)));
      forged.put("a byte flipped in the signature", wrap(flip(handle(ticket), 0)));
      forged.put("the body re-signed with a wrong key", wrap(resealed(handle(ticket))));
      Ticket fromOtherCluster = ritaElsewhere.sql().execute("SELECT v FROM t", ritaElsewhere.auth())
          .getEndpoints().get(0).getTicket();
      forged.put("a ticket of another cluster (other secret)", fromOtherCluster);
      for (Map.Entry<String, Ticket> e : forged.entrySet()) {
        Throwable failure = catchThrowable(() -> rows(rita, e.getValue()));
        assertThat(Status.code(failure)).as(e.getKey()).isEqualTo("INVALID_ARGUMENT");
      }

      // another user's ticket
      Throwable foreign = catchThrowable(() -> rows(walt, ticket));
      assertThat(Status.code(foreign)).isEqualTo("PERMISSION_DENIED");
      assertThat(foreign).hasMessageContaining("another user");

      // a forged prepared-statement handle
      Throwable forgedHandle = catchThrowable(() -> rita.flight().getInfo(FlightDescriptor.command(Any.pack(
          FlightSql.CommandPreparedStatementQuery.newBuilder().setPreparedStatementHandle(ByteString.copyFrom(
              new byte[48])).build()).toByteArray()), rita.auth()));
      assertThat(Status.code(forgedHandle)).isEqualTo("INVALID_ARGUMENT");

      // expired: past query.ticket-lifetime
      clock.advance(Duration.ofMinutes(5).plusSeconds(1));
      Throwable expired = catchThrowable(() -> rows(rita, ticket));
      assertThat(Status.code(expired)).isEqualTo("FAILED_PRECONDITION");
      assertThat(expired).hasMessageContaining("run the query again");
      // ... and running it again gives a fresh ticket that works
      Ticket fresh = rita.sql().execute("SELECT v FROM t", rita.auth()).getEndpoints().get(0).getTicket();
      assertThat(rows(rita, fresh)).isEqualTo(10);
    }
  }

  private static long rows(FlightTestClient client, Ticket ticket) throws Exception {
    long rows = 0;
    try (FlightStream stream = client.sql().getStream(ticket, client.auth())) {
      while (stream.next()) {
        rows += stream.getRoot().getRowCount();
      }
    }
    return rows;
  }

  private static byte[] handle(Ticket ticket) throws Exception {
    return Any.parseFrom(ticket.getBytes()).unpack(FlightSql.TicketStatementQuery.class).getStatementHandle()
        .toByteArray();
  }

  private static Ticket wrap(byte[] handle) {
    return new Ticket(Any.pack(FlightSql.TicketStatementQuery.newBuilder()
        .setStatementHandle(ByteString.copyFrom(handle)).build()).toByteArray());
  }

  private static byte[] flip(byte[] bytes, int index) {
    byte[] copy = bytes.clone();
    copy[index] ^= 0x01;
    return copy;
  }

  /** The ticket's JSON body with the owner changed to walt and a made-up MAC in front. */
  private static byte[] resealed(byte[] sealed) {
    String body = new String(sealed, 32, sealed.length - 32, StandardCharsets.UTF_8).replace("\"rita\"", "\"walt\"");
    byte[] payload = body.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[32 + payload.length];
    for (int i = 0; i < 32; i++) {
      out[i] = (byte) (i * 7);
    }
    System.arraycopy(payload, 0, out, 32, payload.length);
    return out;
  }

  private static HeaderCallOption basic(String user, String password) {
    CallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", "Basic " + Base64.getEncoder().encodeToString(
        (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    return new HeaderCallOption(headers);
  }

  private static HeaderCallOption bearer(String token) {
    CallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", "Bearer " + token);
    return new HeaderCallOption(headers);
  }
}
