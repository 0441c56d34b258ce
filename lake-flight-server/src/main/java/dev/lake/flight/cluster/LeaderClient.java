package dev.lake.flight.cluster;

import com.google.protobuf.Any;
import dev.lake.flight.limits.IdleStreams;
import dev.lake.flight.security.InternalTransport;
import java.net.URI;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;
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
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A follower's client of the leader's internal endpoint. One Flight client per leader address, kept until the
 * leader changes; gRPC keepalive notices a leader that vanished without closing its connections.
 *
 * <p>An ingest is forwarded as a stream: each batch the client sends is passed on as it arrives (the incoming
 * batch's buffers are sent as they are), and the next batch is read from the client only once gRPC is ready to take
 * more, so at most about one batch per ingest is held here (bounded buffer, design.md invariant 7). If the client's
 * stream breaks, the forwarded stream is cancelled, so the leader commits nothing. {@link ForwardingFailures}
 * turns a failure into UNAVAILABLE (nothing committed) or UNKNOWN (the whole stream was sent, the answer lost).
 */
public final class LeaderClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderClient.class);
  private final BufferAllocator allocator;
  private final InternalTokens tokens;
  private final String nodeId;
  private final Map<String, FlightClient> clients = new ConcurrentHashMap<>();

  private final InternalTransport transport;

  public LeaderClient(BufferAllocator allocator, InternalTokens tokens, String nodeId, InternalTransport transport) {
    this.allocator = allocator;
    this.tokens = tokens;
    this.nodeId = nodeId;
    this.transport = transport;
  }

  /** Forwards one bulk ingest to {@code leader}, streaming {@code source} through; returns the leader's answer. */
  public ForwardedWrite ingest(Forwarding.Target leader, String user, CommandStatementIngest command,
      FlightStream source, IdleStreams idle) {
    FlightClient client = client(leader.address());
    FlightDescriptor descriptor = FlightDescriptor.command(Any.pack(command).toByteArray());
    Answer answer = new Answer();
    VectorSchemaRoot root;
    try {
      root = source.getRoot();
    } catch (RuntimeException e) {
      throw ForwardingFailures.clientStreamFailed(0, e);
    }
    boolean sentAll = false;
    long rows = 0;
    try {
      FlightClient.ClientStreamListener put = client.startPut(descriptor, root, answer,
          auth(user, InternalTokens.putRequest(descriptor.getCommand())));
      while (!answer.isCancelled()) {
        boolean more;
        try {
          more = idle.next(source);
        } catch (RuntimeException e) {
          put.error(CallStatus.CANCELLED.withDescription("the client's ingest stream broke on the forwarding node")
              .toRuntimeException());
          throw ForwardingFailures.clientStreamFailed(rows, e);
        }
        if (!more) {
          break;
        }
        awaitReady(put, answer);
        if (answer.isCancelled()) {
          break; // the leader answered (or failed) before taking the whole stream
        }
        put.putNext();
        rows += root.getRowCount();
      }
      if (!answer.isCancelled()) {
        put.completed();
        sentAll = true;
      }
      return ForwardedWrite.fromJson(answer.await());
    } catch (FlightRuntimeException e) {
      throw ForwardingFailures.ingestFailed(leader, e, sentAll, rows);
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
      // Forget the clients of earlier leaders (calls still running on them finish or fail on their own).
      clients.keySet().removeIf(old -> closeQuietly(clients.get(old)));
      URI uri = URI.create("grpc://" + address);
      // TLS (mutual) when this node serves TLS; keepalive, frame limits (InternalTransport).
      io.grpc.ManagedChannel channel = transport.channel(uri.getHost(), uri.getPort());
      LOG.info("forwarding writes to the leader at {} node={}", address, nodeId);
      FlightClient client = FlightGrpcUtils.createFlightClient(allocator, channel);
      clients.put(address, client);
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

  /** Waits (parking briefly) until gRPC takes another message, or the call ended. */
  private static void awaitReady(FlightClient.ClientStreamListener put, Answer answer) {
    while (!put.isReady() && !answer.isCancelled()) {
      LockSupport.parkNanos(200_000);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw CallStatus.CANCELLED.withDescription("interrupted while forwarding").toRuntimeException();
      }
    }
  }

  @Override
  public void close() {
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
      try {
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
