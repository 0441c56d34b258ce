package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.flight.limits.Admission;
import dev.lake.it.support.AdminClient;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.GatedScans;
import dev.lake.it.support.LakeTestServer;
import dev.lake.it.support.LongTable;
import dev.lake.it.support.Poll;
import dev.lake.it.support.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelFlightInfoResult;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10: per-query timeout, server-wide concurrency with a bounded admission queue, and CancelFlightInfo, each
 * against a latch-controlled slow source wrapping a real Lance reader ({@link GatedScans}).
 */
class QueryLimitsTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  @Test
  void queryTimeoutAndAdmissionLimitsHold() throws Exception {
    // 1. The timeout: a query whose source stalls after its first batch, and one whose client stops reading.
    AtomicReference<GatedScans> gated = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dir.resolve("timeout"),
            b -> b.wrapEngine(e -> { gated.set(new GatedScans(e, "/slow/")); return gated.get(); }),
            Map.of("query.timeout", "2s", "query.batch-rows", "1000"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "slow", 0, 50_000, FlightTestClient.create());
      LongTable.ingest(client, "big", 0, 2_000_000, FlightTestClient.create());
      Admission admission = server.server().queryLimits().admission();

      long started = System.nanoTime();
      Ticket slow = ticket(client, "SELECT v FROM slow");
      Throwable timedOut;
      try (FlightStream stream = client.sql().getStream(slow, client.auth())) {
        assertThat(stream.next()).as("the first batch arrives").isTrue();
        assertThat(gated.get().awaitProducerWaiting(60)).isTrue();
        timedOut = catchThrowable(() -> {
          while (stream.next()) {
            // the source stalls; the server's timeout ends the call
          }
        });
      }
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertThat(Status.code(timedOut)).isEqualTo("DEADLINE_EXCEEDED");
      assertThat(timedOut).hasMessageContaining("query.timeout");
      assertThat(elapsedMs).isBetween(1_900L, 30_000L);
      assertThat(gated.get().producerFinished()).as("the stalled producer was stopped, not drained").isFalse();
      Poll.until(LIMIT, "the timed-out query released its slot, handles and memory", () -> admission.running() == 0
          && server.server().openHandles() == 0 && server.server().queryMemory() == 0);

      // a slow reader: the client takes one batch of a 2M-row result and then does not read; the timeout still
      // runs (from DoGet's start to the last batch) and stops the query on the server
      Ticket big = ticket(client, "SELECT v FROM big");
      try (FlightStream stream = client.sql().getStream(big, client.auth())) {
        assertThat(stream.next()).isTrue();
        Poll.until(LIMIT, "the server stopped the query its client does not read", () -> admission.running() == 0
            && server.server().queryMemory() == 0);
        Throwable slowReader = catchThrowable(() -> {
          while (stream.next()) {
            // drain what was in flight; the call ends with the timeout, not with the whole result
          }
        });
        assertThat(Status.code(slowReader)).isEqualTo("DEADLINE_EXCEEDED");
      }
      assertThat(client.count("big")).as("the server keeps serving").isEqualTo(2_000_000);
    }

    // 2. Admission: N = 2 running, Q = 1 queued; the 4th concurrent query is refused, the server stays responsive.
    AtomicReference<GatedScans> gate = new AtomicReference<>();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try (LakeTestServer server = LakeTestServer.start(dir.resolve("admission"),
            b -> b.wrapEngine(e -> { gate.set(new GatedScans(e, "/slow/")); return gate.get(); }),
            Map.of("query.max-concurrent", "2", "query.max-queued", "1", "query.batch-rows", "1000"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "slow", 0, 50_000, FlightTestClient.create());
      LongTable.ingest(client, "fast", 0, 10, FlightTestClient.create());
      Admission admission = server.server().queryLimits().admission();
      List<Ticket> tickets = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        tickets.add(ticket(client, "SELECT v FROM slow"));
      }
      List<CompletableFuture<Long>> admitted = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        Ticket t = tickets.get(i);
        admitted.add(CompletableFuture.supplyAsync(() -> rows(client, t), pool));
      }
      Poll.until(LIMIT, "two queries hold the two slots", () -> admission.running() == 2);
      Ticket third = tickets.get(2);
      admitted.add(CompletableFuture.supplyAsync(() -> rows(client, third), pool));
      Poll.until(LIMIT, "the third query waits in the queue", () -> admission.queued() == 1);

      Throwable refused = catchThrowable(() -> rows(client, tickets.get(3)));
      assertThat(Status.code(refused)).isEqualTo("RESOURCE_EXHAUSTED");
      assertThat(refused).hasMessageContaining("query.max-concurrent = 2").hasMessageContaining("query.max-queued = 1");

      // responsive meanwhile: planning, metadata and admin calls do not take slots and answer at once
      long t0 = System.nanoTime();
      assertThat(AdminClient.action(client, "lake.status", "{}").has("node")).isTrue();
      assertThat(client.sql().execute("SELECT v FROM fast", client.auth()).getEndpoints()).hasSize(1);
      assertThat(client.sql().getTables(null, null, null, null, false, client.auth()).getEndpoints()).isNotEmpty();
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(10_000);

      gate.get().open();
      for (CompletableFuture<Long> f : admitted) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(50_000);
      }
      Poll.until(LIMIT, "every slot is free again", () -> admission.running() == 0 && admission.queued() == 0);
      assertThat(client.count("fast")).isEqualTo(10);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void cancelFlightInfoStopsRunningQuery() throws Exception {
    AtomicReference<GatedScans> gated = new AtomicReference<>();
    try (LakeTestServer server = LakeTestServer.start(dir,
            b -> b.wrapEngine(e -> { gated.set(new GatedScans(e, "/cancel_me/")); return gated.get(); }),
            Map.of("query.batch-rows", "1000"));
        FlightTestClient client = server.client()) {
      LongTable.ingest(client, "cancel_me", 0, 50_000, FlightTestClient.create());
      FlightInfo info = client.sql().execute("SELECT v FROM cancel_me", client.auth());
      Ticket ticket = info.getEndpoints().get(0).getTicket();
      CountDownLatch firstBatch = new CountDownLatch(1);
      CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> catchThrowable(() -> {
        try (FlightStream stream = client.sql().getStream(ticket, client.auth())) {
          stream.next();
          firstBatch.countDown();
          while (stream.next()) {
            // blocked: the producer waits at the gate
          }
        }
      }));
      assertThat(firstBatch.await(60, TimeUnit.SECONDS)).isTrue();
      assertThat(gated.get().awaitProducerWaiting(60)).isTrue();
      assertThat(server.server().queryLimits().running().size()).isEqualTo(1);

      CancelFlightInfoResult result = client.flight().cancelFlightInfo(new CancelFlightInfoRequest(info),
          client.auth());
      assertThat(result.getStatus()).isEqualTo(CancelStatus.CANCELLED);
      Throwable failure = reader.get(60, TimeUnit.SECONDS);
      assertThat(Status.code(failure)).isEqualTo("CANCELLED");
      assertThat(failure).hasMessageContaining("CancelFlightInfo");

      Poll.until(LIMIT, "the cancelled query released its handles, memory and slot", () ->
          server.server().openHandles() == 0 && server.server().queryMemory() == 0
              && server.server().queryLimits().running().size() == 0
              && server.server().queryLimits().admission().running() == 0);
      gated.get().open();
      assertThat(gated.get().producerFinished()).as("the producer was stopped, not drained").isFalse();

      // the cancelled ticket is refused from now on; running the query again gives a new one that works
      assertThat(Status.code(catchThrowable(() -> rows(client, ticket)))).isEqualTo("CANCELLED");
      assertThat(client.count("cancel_me")).isEqualTo(50_000);
      // cancelling it again, or a FlightInfo of only metadata tickets
      assertThat(client.flight().cancelFlightInfo(new CancelFlightInfoRequest(info), client.auth()).getStatus())
          .isEqualTo(CancelStatus.CANCELLED);
      FlightInfo catalogs = client.sql().getCatalogs(client.auth());
      assertThat(client.flight().cancelFlightInfo(new CancelFlightInfoRequest(catalogs), client.auth()).getStatus())
          .isEqualTo(CancelStatus.NOT_CANCELLABLE);
    }
  }

  private static Ticket ticket(FlightTestClient client, String sql) {
    return client.sql().execute(sql, client.auth()).getEndpoints().get(0).getTicket();
  }

  private static long rows(FlightTestClient client, Ticket ticket) {
    long rows = 0;
    try (FlightStream stream = client.sql().getStream(ticket, client.auth())) {
      while (stream.next()) {
        rows += stream.getRoot().getRowCount();
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }
}
