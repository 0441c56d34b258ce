package dev.lake.flight.cluster;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lake.flight.grpc.StatusMapper;
import dev.lake.flight.auth.Identity;
import dev.lake.flight.auth.Role;
import dev.lake.flight.auth.User;
import dev.lake.metasrv.WriteResult;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's internal Flight endpoint ({@code server.internal-port}): followers forward bulk ingest (DoPut with
 * the client's {@code CommandStatementIngest} as descriptor, the client's batches as they arrive) and the admin
 * actions {@code lake.drop_table} and {@code lake.maintain_table} (DoAction) here. Calls are authenticated with
 * {@link InternalTokens} (the cluster secret; each token good once, for the one request it names) and run as the
 * caller the token names, whose role is looked up in
 * this node's {@code auth.users}. Writes run on this node only, never forwarded again: a node that is no longer
 * the leader answers UNAVAILABLE through its write gate. Failures go through {@link StatusMapper}, so the follower
 * can tell the leader's answer (with the {@code lake-code} trailer) from a lost connection.
 */
public final class InternalEndpoint extends NoOpFlightProducer {
  private static final Logger LOG = LoggerFactory.getLogger(InternalEndpoint.class);
  static final Set<String> FORWARDED_ACTIONS = Set.of("lake.drop_table", "lake.maintain_table",
      "lake.create_index");

  /** Runs a bulk ingest on this node (the leader) and returns the acknowledged write. */
  public interface LocalIngest {
    WriteResult ingestHere(Identity caller, CommandStatementIngest command, FlightStream stream);
  }

  /** Runs an admin action on this node (the leader) and returns its JSON result. */
  public interface LocalActions {
    byte[] runHere(Identity caller, Action action);
  }

  private final Map<String, User> users;
  private final LocalIngest ingest;
  private final LocalActions actions;
  private final BufferAllocator allocator;

  public InternalEndpoint(Map<String, User> users, LocalIngest ingest, LocalActions actions,
      BufferAllocator allocator) {
    this.users = Map.copyOf(users);
    this.ingest = ingest;
    this.actions = actions;
    this.allocator = allocator;
  }

  @Override
  public Runnable acceptPut(CallContext context, FlightStream stream, StreamListener<PutResult> ackStream) {
    return () -> {
      try {
        Identity caller = caller(context, Role.WRITER, "ingest");
        FlightDescriptor descriptor = stream.getDescriptor();
        if (descriptor != null && descriptor.isCommand()) {
          binding(context).require(InternalTokens.putRequest(descriptor.getCommand()));
        }
        CommandStatementIngest command = command(descriptor);
        WriteResult result = ingest.ingestHere(caller, command, stream);
        byte[] answer = new ForwardedWrite(result.rowCount(), result.replayed(), Optional.of(result.registration()))
            .toJson();
        try (ArrowBuf buf = allocator.buffer(answer.length)) {
          buf.writeBytes(answer);
          ackStream.onNext(PutResult.metadata(buf));
        }
        ackStream.onCompleted();
      } catch (Throwable t) {
        LOG.debug("forwarded ingest failed", t);
        ackStream.onError(StatusMapper.toStatus(t));
      }
    };
  }

  @Override
  public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
    try {
      if (!FORWARDED_ACTIONS.contains(action.getType())) {
        throw new LakeException(ErrorCode.UNIMPLEMENTED, "the internal endpoint runs only forwarded writes "
            + FORWARDED_ACTIONS);
      }
      binding(context).require(InternalTokens.actionRequest(action.getType(), action.getBody()));
      Identity caller = caller(context, Role.READER, action.getType());
      listener.onNext(new Result(actions.runHere(caller, action)));
      listener.onCompleted();
    } catch (Throwable t) {
      listener.onError(StatusMapper.toStatus(t));
    }
  }

  private static InternalCallBinding binding(CallContext context) {
    InternalCallBinding binding = context.getMiddleware(InternalCallBinding.KEY);
    if (binding == null) {
      throw CallStatus.UNAUTHENTICATED.withDescription("the call carries no internal token").toRuntimeException();
    }
    return binding;
  }

  private Identity caller(CallContext context, Role needed, String what) {
    String name = context.peerIdentity();
    User user = name == null ? null : users.get(name);
    if (user == null) {
      throw CallStatus.UNAUTHENTICATED.withDescription("user '" + name + "' is not configured on the leader: every "
          + "node of a cluster must share auth.users").toRuntimeException();
    }
    if (!user.role().allows(needed)) {
      throw CallStatus.UNAUTHORIZED.withDescription("user '" + name + "' may not " + what + ": it needs role "
          + needed.name().toLowerCase()).toRuntimeException();
    }
    return new Identity(user.name(), user.role());
  }

  private static CommandStatementIngest command(FlightDescriptor descriptor) {
    if (descriptor == null || !descriptor.isCommand()) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT,
          "a forwarded ingest carries a CommandStatementIngest descriptor");
    }
    try {
      Any any = Any.parseFrom(descriptor.getCommand());
      if (!any.is(CommandStatementIngest.class)) {
        throw new LakeException(ErrorCode.UNIMPLEMENTED, "the internal endpoint accepts forwarded bulk ingest only");
      }
      return any.unpack(CommandStatementIngest.class);
    } catch (InvalidProtocolBufferException e) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "the forwarded ingest command is malformed");
    }
  }
}
