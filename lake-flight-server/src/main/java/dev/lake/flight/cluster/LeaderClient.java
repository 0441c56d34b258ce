package dev.lake.flight.cluster;

import com.google.protobuf.Any;
import dev.lake.flight.limits.IdleStreams;
import dev.lake.flight.security.InternalTransport;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.grpc.StatusUtils;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A follower's client of the leader's internal endpoint. One Flight client per leader address, kept until the
 * leader changes; gRPC keepalive notices a leader that vanished without closing its connections.
 *
 * <p>An ingest is forwarded as a stream: each batch the client sends is passed on as it arrives (the incoming
 * batch's buffers are sent as they are), and the next batch is read from the client only once gRPC is ready to take
 * more, so at most about one batch per ingest is held here (bounded buffer, docs/design.md invariant 7). If the
 * client's stream breaks, the forwarded stream is cancelled, so the leader commits nothing. {@link ForwardingFailures}
 * turns a failure into UNAVAILABLE (nothing committed) or UNKNOWN (the whole stream was sent, the answer lost).
 * A forward that stalls or fails while the lease moves to another node follows the new leader
 * ({@link #ingest}).
 */
public final class LeaderClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderClient.class);
  private static final String IDEMPOTENCY_KEY = "lake.idempotency_key";
  /** At most this many leaders per ingest (the first included). */
  private static final int MAX_ROUTES = 3;
  private static final long POLL_MILLIS = 50;
  private final BufferAllocator allocator;
  private final InternalTokens tokens;
  private final String nodeId;
  private final Duration deadline;
  private final long retryBuffer;
  private final LongSupplier nanoTime;
  private final InternalTransport transport;
  private final Map<String, FlightClient> clients = new ConcurrentHashMap<>();
  private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();

  /**
   * @param deadline how long one attempt waits on the leader without progress before the lease is re-read
   *     ({@code forwarding.deadline})
   * @param retryBuffer the most bytes of one ingest held to send it again to a new leader
   *     ({@code forwarding.retry-buffer})
   */
  public LeaderClient(BufferAllocator allocator, InternalTokens tokens, String nodeId, Duration deadline,
      long retryBuffer, LongSupplier nanoTime, InternalTransport transport) {
    this.allocator = allocator;
    this.tokens = tokens;
    this.nodeId = nodeId;
    this.deadline = deadline;
    this.retryBuffer = retryBuffer;
    this.nanoTime = nanoTime;
    this.transport = transport;
  }

  /** The client's stream, consumed once across all attempts. */
  private static final class Source {
    final FlightStream stream;
    final VectorSchemaRoot root;
    final IdleStreams idle;
    boolean done;
    long rowsRead;

    Source(FlightStream stream, VectorSchemaRoot root, IdleStreams idle) {
      this.stream = stream;
      this.root = root;
      this.idle = idle;
    }
  }

  /** Signals that the attempt stalled and the lease names another node now; never reaches a client. */
  private static final class LeaderMoved extends RuntimeException {
    final Forwarding.Target next;

    LeaderMoved(Forwarding.Target next) {
      super(null, null, false, false);
      this.next = next;
    }
  }

  /** One attempt's target, what it sent, and its deadline watch. */
  private final class Attempt {
    final Forwarding.Target target;
    final Router router;
    long rows;
    boolean sentAll;
    long lastProgress = nanoTime.getAsLong();

    Attempt(Forwarding.Target target, Router router) {
      this.target = target;
      this.router = router;
    }

    void progressed() {
      lastProgress = nanoTime.getAsLong();
    }

    /** After {@code deadline} without progress: re-read the lease; throws {@link LeaderMoved} if it moved. */
    void check() {
      long now = nanoTime.getAsLong();
      if (now - lastProgress < deadline.toNanos()) {
        return;
      }
      lastProgress = now;
      Optional<Forwarding.Target> next = moved();
      if (next.isPresent()) {
        throw new LeaderMoved(next.get());
      }
      LOG.debug("the leader has not answered within forwarding.deadline but still holds the lease; waiting on "
          + "node={} leader={}", nodeId, target.nodeId());
    }

    /** The lease's holder now, if it is not this attempt's target. */
    Optional<Forwarding.Target> moved() {
      try {
        return router.reread().filter(t -> !t.equals(target));
      } catch (RuntimeException e) {
        LOG.debug("re-reading the lease failed node={}: {}", nodeId, e.toString());
        return Optional.empty();
      }
    }
  }

  /** Where the leader is now, as the registry's lease item says (a fresh read); empty when none is known. */
  interface Router {
    Optional<Forwarding.Target> reread();
  }

  /**
   * Forwards one bulk ingest to {@code first}, streaming {@code source} through; returns the leader's answer.
   *
   * <p>Each attempt has a deadline ({@code forwarding.deadline}): when the leader takes no batch and gives no
   * answer for that long, the lease item is re-read. While it still names the same leader (a slow commit, a lock
   * wait) the attempt goes on; when it names another node (the old leader stalled: paused, partitioned, or too slow
   * to renew), the attempt is cancelled and the ingest is sent again, from its first batch, to the new holder. The
   * same happens when the connection fails or the leader answers UNAVAILABLE and the lease has moved. A new attempt
   * is made only when nothing can have been committed (the old leader never got the whole stream, or refused it),
   * or when the ingest carries a {@code lake.idempotency_key}, which the registry applies at most once; and only
   * while every batch sent so far is held ({@code forwarding.retry-buffer}). Otherwise the answer is UNAVAILABLE
   * (nothing committed) or UNKNOWN (the outcome is unknown: retry with a key).
   */
  public ForwardedWrite ingest(Forwarding.Target first, String user, CommandStatementIngest command,
      FlightStream source, IdleStreams idle, Router router) {
    boolean keyed = command.getOptionsMap().containsKey(IDEMPOTENCY_KEY);
    VectorSchemaRoot root;
    try {
      root = source.getRoot();
    } catch (RuntimeException e) {
      throw ForwardingFailures.clientStreamFailed(0, e);
    }
    FlightDescriptor descriptor = FlightDescriptor.command(Any.pack(command).toByteArray());
    Source from = new Source(source, root, idle);
    try (ReplayBuffer replay = new ReplayBuffer(retryBuffer)) {
      Forwarding.Target target = first;
      for (int route = 1; ; route++) {
        Attempt attempt = new Attempt(target, router);
        try {
          return send(attempt, descriptor, user, from, replay);
        } catch (LeaderMoved moved) {
          boolean mayResend = replay.complete() && route < MAX_ROUTES && (!attempt.sentAll || keyed);
          if (!mayResend) {
            throw ForwardingFailures.stalled(target, moved.next, deadline, attempt.sentAll, attempt.rows,
                replay.complete());
          }
          LOG.info("forward re-routed table={} from={} to={} reason=\"no answer within forwarding.deadline ({}) and "
              + "the lease moved\" resent={}", command.getTable(), target.nodeId(), moved.next.nodeId(), deadline,
              attempt.sentAll ? "whole stream" : "stream so far");
          target = moved.next;
        } catch (FlightRuntimeException e) {
          RuntimeException answer = ForwardingFailures.ingestFailed(target, e, attempt.sentAll, attempt.rows);
          io.grpc.Status.Code code = io.grpc.Status.fromThrowable(answer).getCode();
          boolean retryable = code == io.grpc.Status.Code.UNAVAILABLE
              || (code == io.grpc.Status.Code.UNKNOWN && keyed);
          Forwarding.Target from0 = target;
          Optional<Forwarding.Target> next = retryable && replay.complete() && route < MAX_ROUTES
              ? attempt.moved() : Optional.empty();
          if (next.isEmpty()) {
            throw answer;
          }
          LOG.info("forward re-routed table={} from={} to={} reason={}", command.getTable(), from0.nodeId(),
              next.get().nodeId(), code);
          target = next.get();
        }
      }
    }
  }

  /** One attempt: the batches held so far again (if any), then the rest of the client's stream, then the answer. */
  private ForwardedWrite send(Attempt attempt, FlightDescriptor descriptor, String user, Source from,
      ReplayBuffer replay) {
    FlightClient client = client(attempt.target.address());
    Answer answer = new Answer();
    FlightClient.ClientStreamListener put = client.startPut(descriptor, from.root, answer,
        auth(user, InternalTokens.putRequest(descriptor.getCommand())));
    try {
      VectorLoader loader = new VectorLoader(from.root);
      for (ArrowRecordBatch held : replay.batches()) {
        awaitReady(put, answer, attempt);
        if (answer.isCancelled()) {
          break;
        }
        loader.load(held);
        put.putNext();
        attempt.rows += from.root.getRowCount();
      }
      while (!from.done && !answer.isCancelled()) {
        boolean more;
        try {
          more = from.idle.next(from.stream);
        } catch (RuntimeException e) {
          put.error(CallStatus.CANCELLED.withDescription("the client's ingest stream broke on the forwarding node")
              .toRuntimeException());
          throw ForwardingFailures.clientStreamFailed(from.rowsRead, e);
        }
        if (!more) {
          from.done = true;
          break;
        }
        from.rowsRead += from.root.getRowCount();
        replay.add(from.root);
        awaitReady(put, answer, attempt);
        if (answer.isCancelled()) {
          break; // the leader answered (or failed) before taking the whole stream
        }
        put.putNext();
        attempt.rows += from.root.getRowCount();
      }
      if (!answer.isCancelled()) {
        put.completed();
        attempt.sentAll = true;
      }
      return ForwardedWrite.fromJson(answer.await(attempt));
    } catch (LeaderMoved moved) {
      put.error(CallStatus.CANCELLED.withDescription("the forwarding node stopped waiting for this leader: the "
          + "lease moved to '" + moved.next.nodeId() + "'").toRuntimeException());
      throw moved;
    }
  }

  /** Forwards one admin action to {@code leader}; returns its JSON result. */
  public byte[] action(Forwarding.Target leader, String user, Action action) {
    try {
      Iterator<Result> results = client(leader.address()).doAction(action,
          auth(user, InternalTokens.actionRequest(action.getType(), action.getBody())));
      byte[] out = null;
      while (results.hasNext()) {
        byte[] body = results.next().getBody();
        if (out == null) {
          out = body;
        }
      }
      if (out == null) {
        throw CallStatus.INTERNAL.withDescription("the leader returned no result for " + action.getType())
            .toRuntimeException();
      }
      return out;
    } catch (FlightRuntimeException e) {
      throw ForwardingFailures.actionFailed(leader, action.getType(), e);
    }
  }

  /** Credentials for one forwarded call: a token good once, for {@code request} only. */
  private CallOption auth(String user, String request) {
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", InternalTokens.SCHEME + " " + tokens.issue(user, nodeId, request));
    return new HeaderCallOption(headers);
  }

  private FlightClient client(String address) {
    FlightClient existing = clients.get(address);
    if (existing != null) {
      return existing;
    }
    synchronized (clients) {
      existing = clients.get(address);
      if (existing != null) {
        return existing;
      }
      // Forget the clients of earlier leaders. Calls still running on them are cancelled (a stalled leader would
      // otherwise hold them, and the channel's shutdown, for as long as it stalls); they re-route on their own.
      clients.keySet().removeIf(old -> {
        ManagedChannel oldChannel = channels.remove(old);
        if (oldChannel != null) {
          oldChannel.shutdownNow();
        }
        return closeQuietly(clients.get(old));
      });
      URI uri = URI.create("grpc://" + address);
      // TLS (mutual) when this node serves TLS; keepalive, frame limits (InternalTransport).
      ManagedChannel channel = transport.channel(uri.getHost(), uri.getPort());
      LOG.info("forwarding writes to the leader at {} node={}", address, nodeId);
      FlightClient client = FlightGrpcUtils.createFlightClient(allocator, channel);
      clients.put(address, client);
      channels.put(address, channel);
      return client;
    }
  }

  private static boolean closeQuietly(FlightClient client) {
    if (client != null) {
      try {
        client.close();
      } catch (Exception e) {
        LOG.debug("closing a leader client failed", e);
      }
    }
    return true;
  }

  /** Waits (parking briefly) until gRPC takes another message, or the call ended; checks the deadline. */
  private static void awaitReady(FlightClient.ClientStreamListener put, Answer answer, Attempt attempt) {
    while (!put.isReady() && !answer.isCancelled()) {
      LockSupport.parkNanos(200_000);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw CallStatus.CANCELLED.withDescription("interrupted while forwarding").toRuntimeException();
      }
      attempt.check();
    }
    attempt.progressed();
  }

  @Override
  public void close() {
    channels.values().forEach(ManagedChannel::shutdownNow);
    channels.clear();
    clients.values().forEach(LeaderClient::closeQuietly);
    clients.clear();
  }

  /** The leader's answer to a forwarded DoPut: its result metadata, or its failure. */
  private static final class Answer implements FlightClient.PutListener {
    private final CompletableFuture<byte[]> done = new CompletableFuture<>();
    private volatile byte[] metadata;

    @Override
    public void onNext(PutResult result) {
      ArrowBuf buf = result.getApplicationMetadata();
      if (buf != null) {
        byte[] bytes = new byte[(int) buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        metadata = bytes;
      }
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(StatusUtils.fromThrowable(t));
    }

    @Override
    public void onCompleted() {
      if (metadata == null) {
        done.completeExceptionally(CallStatus.INTERNAL.withDescription("the leader acknowledged the forwarded "
            + "ingest without a result").toRuntimeException());
      } else {
        done.complete(metadata);
      }
    }

    @Override
    public boolean isCancelled() {
      return done.isDone();
    }

    @Override
    public void getResult() {
      await();
    }

    byte[] await() {
      return await(null);
    }

    byte[] await(Attempt attempt) {
      try {
        while (attempt != null && !done.isDone()) {
          try {
            return done.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
          } catch (java.util.concurrent.TimeoutException e) {
            attempt.check();
          }
        }
        return done.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw CallStatus.CANCELLED.withDescription("interrupted while waiting for the leader").toRuntimeException();
      } catch (ExecutionException e) {
        throw StatusUtils.fromThrowable(e.getCause());
      }
    }
  }
}
