package dev.lake.flight;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lake.flight.ticket.InvalidTicketException;
import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/** The producer's decoding of Flight SQL commands and tickets, and its encoding of schemas. */
final class FlightSqlCommands {
  private FlightSqlCommands() {}

  static Any command(FlightDescriptor descriptor) {
    if (descriptor == null || !descriptor.isCommand()) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT,
          "lake serves Flight SQL commands; path descriptors are not supported");
    }
    return parseAny(descriptor.getCommand(), "command");
  }

  static Any parseAny(byte[] bytes, String what) {
    try {
      Any any = Any.parseFrom(bytes);
      if (!any.getTypeUrl().startsWith("type.googleapis.com/arrow.flight.protocol.sql.")) {
        throw new InvalidTicketException("the " + what + " is not a Flight SQL " + what);
      }
      return any;
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidTicketException("the " + what + " bytes are malformed (not a Flight SQL " + what + ")");
    }
  }

  /** The message {@code any} packs; bytes that do not decode as it are the client's mistake (INVALID_ARGUMENT). */
  static <T extends com.google.protobuf.Message> T unpack(Any any, Class<T> type, String what) {
    try {
      return any.unpack(type);
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidTicketException("the " + what + " is malformed: it does not decode as a "
          + type.getSimpleName());
    }
  }

  /** A schema as an encapsulated IPC message, the form Flight SQL clients deserialize. */
  static ByteString serialize(Schema schema) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);
      return ByteString.copyFrom(out.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
