package org.apache.arrow.flight;

import java.util.Iterator;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ipc.message.MessageMetadataResult;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * lake's read-only view of one incoming Flight message (Arrow's {@code ArrowMessage} is package-private), for the
 * checks {@code dev.lake.flight.streams} makes on a DoPut stream before Arrow's reader sees a message. Reads only what
 * the message already holds; never retains or frees its buffers.
 */
public final class LakeFlightMessages {
  /** What one message is. */
  public enum Kind { NONE, SCHEMA, DICTIONARY_BATCH, RECORD_BATCH, OTHER }

  private LakeFlightMessages() {}

  /** Whether {@code message} is an incoming Flight message (the DoPut request type). */
  public static boolean isMessage(Object message) {
    return message instanceof ArrowMessage;
  }

  public static boolean hasDescriptor(Object message) {
    return ((ArrowMessage) message).getDescriptor() != null;
  }

  public static Kind kind(Object message) {
    switch (((ArrowMessage) message).getMessageType()) {
      case NONE:
        return Kind.NONE;
      case SCHEMA:
        return Kind.SCHEMA;
      case DICTIONARY_BATCH:
        return Kind.DICTIONARY_BATCH;
      case RECORD_BATCH:
        return Kind.RECORD_BATCH;
      default:
        return Kind.OTHER;
    }
  }

  /** The IPC message header (null for a message without one). */
  public static MessageMetadataResult header(Object message) {
    return ((ArrowMessage) message).asSchemaMessage();
  }

  public static Schema schema(Object message) {
    return ((ArrowMessage) message).asSchema();
  }

  /** The body's size in bytes (0 without a body). */
  public static long bodyBytes(Object message) {
    long bytes = 0;
    Iterator<ArrowBuf> bufs = ((ArrowMessage) message).getBufs().iterator();
    while (bufs.hasNext()) {
      bytes += bufs.next().readableBytes();
    }
    return bytes;
  }

  /** Frees the message's buffers (a message lake refuses never reaches Arrow's reader). */
  public static void close(Object message) {
    try {
      ((ArrowMessage) message).close();
    } catch (Exception e) {
      // nothing to do: the buffers are released or were never held
    }
  }
}
