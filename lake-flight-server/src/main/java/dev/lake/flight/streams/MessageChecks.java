package dev.lake.flight.streams;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.flight.LakeFlightMessages;
import org.apache.arrow.flight.LakeFlightMessages.Kind;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The rules every message of one DoPut stream must follow before Arrow's reader sees it: the first message carries
 * the flight descriptor; one schema comes before any batch; a batch's body is as long as its IPC header declares and
 * every buffer lies inside it; a dictionary batch names a dictionary id the schema declares; the header parses. A
 * message that breaks a rule is refused with INVALID_ARGUMENT saying which. Not thread-safe: gRPC delivers one call's
 * messages one at a time.
 */
final class MessageChecks {
  private final Set<Long> dictionaryIds = new HashSet<>();
  /** The index of each top-level field's node in a record batch (known once the schema arrived). */
  private List<Integer> topLevelNodes = List.of();
  private long messages;
  private boolean schema;

  /** Checks {@code message}; throws the refusal when it breaks a rule. */
  Kind check(Object message) {
    messages++;
    if (messages == 1 && !LakeFlightMessages.hasDescriptor(message)) {
      throw refused("the first message of a DoPut must carry the flight descriptor (the command); it had none");
    }
    Kind kind;
    try {
      kind = LakeFlightMessages.kind(message);
    } catch (RuntimeException e) {
      throw refused("message " + messages + " has a malformed IPC header");
    }
    switch (kind) {
      case NONE:
        return kind;
      case SCHEMA:
        if (schema) {
          throw refused("message " + messages + " is a second schema; a stream has one schema, before its batches");
        }
        schema(message);
        schema = true;
        return kind;
      case RECORD_BATCH:
      case DICTIONARY_BATCH:
        if (!schema) {
          throw refused("message " + messages + " is a " + (kind == Kind.RECORD_BATCH ? "record" : "dictionary")
              + " batch, but no schema came before it: send the schema first");
        }
        batch(message, kind);
        return kind;
      default:
        throw refused("message " + messages + " is of a type an ingest stream cannot hold (tensor or unknown)");
    }
  }

  private void schema(Object message) {
    Schema parsed;
    try {
      parsed = LakeFlightMessages.schema(message);
    } catch (RuntimeException e) {
      throw refused("message " + messages + " holds a malformed schema");
    }
    collectDictionaries(parsed.getFields());
    topLevelNodes = new java.util.ArrayList<>();
    int node = 0;
    for (Field f : parsed.getFields()) {
      topLevelNodes.add(node);
      node += nodes(f);
    }
  }

  /** The field nodes a field takes in a record batch: its own, then its children's (pre-order). */
  private static int nodes(Field f) {
    if (f.getDictionary() != null) {
      return 1; // its indices; the values travel in dictionary batches
    }
    int n = 1;
    for (Field child : f.getChildren()) {
      n += nodes(child);
    }
    return n;
  }

  private void collectDictionaries(List<Field> fields) {
    for (Field f : fields) {
      DictionaryEncoding d = f.getDictionary();
      if (d != null) {
        dictionaryIds.add(d.getId());
      }
      collectDictionaries(f.getChildren());
    }
  }

  private void batch(Object message, Kind kind) {
    long body = LakeFlightMessages.bodyBytes(message);
    try {
      Message header = LakeFlightMessages.header(message).getMessage();
      long declared = header.bodyLength();
      if (declared < 0 || body < declared) {
        throw refused("batch message " + messages + " has a body of " + body + " bytes, but its IPC header "
            + "declares " + declared + ": the batch is truncated or its header is wrong");
      }
      RecordBatch data;
      if (kind == Kind.DICTIONARY_BATCH) {
        DictionaryBatch dictionary = (DictionaryBatch) header.header(new DictionaryBatch());
        if (header.headerType() != MessageHeader.DictionaryBatch || dictionary == null) {
          throw refused("dictionary batch message " + messages + " has a malformed IPC header");
        }
        if (!dictionaryIds.contains(dictionary.id())) {
          throw refused("dictionary batch message " + messages + " is for dictionary id " + dictionary.id()
              + ", which the stream's schema does not declare");
        }
        data = dictionary.data();
      } else {
        data = (RecordBatch) header.header(new RecordBatch());
      }
      if (data == null || data.length() < 0) {
        throw refused("batch message " + messages + " has a malformed IPC header (no record batch)");
      }
      if (kind == Kind.RECORD_BATCH) {
        // every top-level column holds exactly the batch's rows (Arrow's IPC format): a header whose row count
        // disagrees would have Arrow's loader resize every column to it (one flipped bit: 134 million rows)
        for (int field = 0; field < topLevelNodes.size(); field++) {
          int node = topLevelNodes.get(field);
          if (node >= data.nodesLength() || data.nodes(node).length() != data.length()) {
            throw refused("batch message " + messages + " declares " + data.length() + " rows, but its column "
                + (field + 1) + " holds " + (node >= data.nodesLength() ? "no field node"
                    : data.nodes(node).length() + " values") + ": its IPC header is inconsistent");
          }
        }
      }
      Buffer buffer = new Buffer();
      for (int i = 0; i < data.buffersLength(); i++) {
        data.buffers(buffer, i);
        if (buffer.offset() < 0 || buffer.length() < 0 || buffer.offset() + buffer.length() > declared) {
          throw refused("batch message " + messages + ": buffer " + i + " (offset " + buffer.offset() + ", "
              + buffer.length() + " bytes) lies outside the body of " + declared + " bytes");
        }
      }
    } catch (LakeException e) {
      throw e;
    } catch (RuntimeException e) {
      throw refused("batch message " + messages + " has a malformed IPC header");
    }
  }

  private static LakeException refused(String why) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, "the ingest stream was refused: " + why
        + "; nothing was written");
  }
}
