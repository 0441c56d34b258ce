package dev.lake.flight.cluster;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import dev.lake.flight.grpc.StatusMapper;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * What a follower answers when forwarding to the leader failed (docs/design.md's status table):
 * <ul>
 *   <li>The leader answered with a status of its own (it carries the {@code lake-code} trailer): passed through
 *       unchanged, e.g. UNAVAILABLE when it is no longer the leader, INVALID_ARGUMENT for a schema mismatch.
 *   <li>The connection failed before the whole stream was sent (or could not be opened): nothing can have been
 *       committed, because the leader commits only after the end of the stream. UNAVAILABLE: retry.
 *   <li>The whole stream was sent but the answer was lost: the ingest may or may not have been committed. UNKNOWN:
 *       retry with the same {@code lake.idempotency_key} (applied at most once; a retry of an applied ingest gets the
 *       original result).
 * </ul>
 */
final class ForwardingFailures {
  private static final Metadata.Key<String> CODE =
      Metadata.Key.of(StatusMapper.CODE_KEY, Metadata.ASCII_STRING_MARSHALLER);

  private ForwardingFailures() {}

  static RuntimeException ingestFailed(Forwarding.Target leader, FlightRuntimeException e, boolean sentAll,
      long rowsSent) {
    String leaderCode = leaderCode(e);
    if (leaderCode != null) {
      return status(Status.Code.valueOf(leaderCode), e.getMessage());
    }
    if (e.status().code() == FlightStatusCode.UNAUTHENTICATED) {
      return status(Status.Code.UNAVAILABLE, "the leader '" + leader.nodeId() + "' at " + leader.address()
          + " refused this node's internal credentials (" + e.getMessage() + "): every node must share "
          + "cluster.secret; nothing was committed");
    }
    if (!sentAll || connectFailed(e)) {
      return status(Status.Code.UNAVAILABLE, "the leader '" + leader.nodeId() + "' at " + leader.address()
          + " failed or changed while this ingest was being forwarded, after " + rowsSent + " rows and before the "
          + "whole stream was sent (" + e.getMessage() + "): nothing was committed. Retry (with the same "
          + "lake.idempotency_key)");
    }
    return status(Status.Code.UNKNOWN, "the whole ingest was forwarded to the leader '" + leader.nodeId() + "' at "
        + leader.address() + " but its answer was lost (" + e.getMessage() + "): the ingest may or may not have "
        + "been committed. Retry with the same lake.idempotency_key: it is applied at most once, and a retry of an "
        + "applied ingest returns the original result");
  }

  /**
   * The leader took nothing and answered nothing for {@code forwarding.deadline}, the lease moved to {@code next},
   * and the ingest cannot be sent again: UNAVAILABLE when the old leader never got the whole stream (it commits only
   * after its end, and the lease it would commit under is gone), else UNKNOWN (it may have committed just before it
   * stalled; only a {@code lake.idempotency_key} makes a resend safe).
   */
  static RuntimeException stalled(Forwarding.Target leader, Forwarding.Target next, java.time.Duration deadline,
      boolean sentAll, long rowsSent, boolean held) {
    String what = "the leader '" + leader.nodeId() + "' gave no answer within forwarding.deadline (" + deadline
        + ") and the lease moved to '" + next.nodeId() + "'";
    if (!sentAll) {
      return status(Status.Code.UNAVAILABLE, what + " after " + rowsSent + " rows and before the whole stream was "
          + "sent: nothing was committed" + (held ? "" : " (the ingest was too large for forwarding.retry-buffer "
          + "to be sent again)") + ". Retry (with the same lake.idempotency_key)");
    }
    return status(Status.Code.UNKNOWN, what + " after the whole ingest was sent: the old leader may have committed "
        + "it just before it stopped answering. Retry with a lake.idempotency_key (applied at most once; a forwarded "
        + "ingest with one follows the new leader by itself)" + (held ? "" : "; this ingest was too large for "
        + "forwarding.retry-buffer to be sent again"));
  }

  static RuntimeException actionFailed(Forwarding.Target leader, String action, FlightRuntimeException e) {
    String leaderCode = leaderCode(e);
    if (leaderCode != null) {
      return status(Status.Code.valueOf(leaderCode), e.getMessage());
    }
    if (e.status().code() == FlightStatusCode.UNAUTHENTICATED || connectFailed(e)) {
      return status(Status.Code.UNAVAILABLE, "could not forward " + action + " to the leader '" + leader.nodeId()
          + "' at " + leader.address() + " (" + e.getMessage() + "): nothing was done; retry");
    }
    return status(Status.Code.UNKNOWN, action + " was forwarded to the leader '" + leader.nodeId() + "' at "
        + leader.address() + " but its answer was lost (" + e.getMessage() + "): it may or may not have been done; "
        + "check with lake.describe_table, then retry if needed");
  }

  static RuntimeException clientStreamFailed(long rows, RuntimeException e) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT,
        "the ingest stream failed after " + rows + " rows: " + e.getMessage()
        + "; the forwarded stream was cancelled and nothing was committed", e);
  }

  private static String leaderCode(FlightRuntimeException e) {
    if (e.status().metadata() == null || !e.status().metadata().containsKey(StatusMapper.CODE_KEY)) {
      return null;
    }
    String code = e.status().metadata().get(StatusMapper.CODE_KEY);
    try {
      Status.Code.valueOf(code);
      return code;
    } catch (IllegalArgumentException | NullPointerException bad) {
      return null;
    }
  }

  private static boolean connectFailed(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  private static StatusRuntimeException status(Status.Code code, String message) {
    Metadata trailers = new Metadata();
    trailers.put(CODE, code.name());
    String m = message == null ? "" : message;
    if (m.getBytes(StandardCharsets.UTF_8).length > 2000) {
      m = m.substring(0, 1900) + "... (truncated)";
    }
    return Status.fromCode(code).withDescription(m).asRuntimeException(trailers);
  }
}
