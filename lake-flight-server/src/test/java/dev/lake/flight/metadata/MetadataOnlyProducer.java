package dev.lake.flight.metadata;

import com.google.protobuf.Message;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCatalogs;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCrossReference;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetExportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetImportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetPrimaryKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTableTypes;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A Flight SQL producer that answers only the metadata commands, by delegating to {@link
 * FlightSqlMetadata} the way lake's producer does.
 */
final class MetadataOnlyProducer extends NoOpFlightSqlProducer {
  private final FlightSqlMetadata metadata;
  private final BufferAllocator allocator;

  MetadataOnlyProducer(FlightSqlMetadata metadata, BufferAllocator allocator) {
    this.metadata = metadata;
    this.allocator = allocator;
  }

  private FlightInfo info(Message command, FlightDescriptor descriptor) {
    return metadata.flightInfo(command, descriptor);
  }

  private void stream(Message command, ServerStreamListener listener) {
    try {
      metadata.stream(command, allocator, listener);
    } catch (RuntimeException e) {
      listener.error(e);
    }
  }

  @Override
  public FlightInfo getFlightInfoSqlInfo(
      CommandGetSqlInfo request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamSqlInfo(
      CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
    stream(command, listener);
  }

  @Override
  public FlightInfo getFlightInfoTypeInfo(
      CommandGetXdbcTypeInfo request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamTypeInfo(
      CommandGetXdbcTypeInfo request, CallContext context, ServerStreamListener listener) {
    stream(request, listener);
  }

  @Override
  public FlightInfo getFlightInfoCatalogs(
      CommandGetCatalogs request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
    stream(CommandGetCatalogs.getDefaultInstance(), listener);
  }

  @Override
  public FlightInfo getFlightInfoSchemas(
      CommandGetDbSchemas request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamSchemas(
      CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
    stream(command, listener);
  }

  @Override
  public FlightInfo getFlightInfoTables(
      CommandGetTables request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamTables(
      CommandGetTables command, CallContext context, ServerStreamListener listener) {
    stream(command, listener);
  }

  @Override
  public FlightInfo getFlightInfoTableTypes(
      CommandGetTableTypes request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
    stream(CommandGetTableTypes.getDefaultInstance(), listener);
  }

  @Override
  public FlightInfo getFlightInfoPrimaryKeys(
      CommandGetPrimaryKeys request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamPrimaryKeys(
      CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener) {
    stream(command, listener);
  }

  @Override
  public FlightInfo getFlightInfoExportedKeys(
      CommandGetExportedKeys request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamExportedKeys(
      CommandGetExportedKeys command, CallContext context, ServerStreamListener listener) {
    stream(command, listener);
  }

  @Override
  public FlightInfo getFlightInfoImportedKeys(
      CommandGetImportedKeys request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamImportedKeys(
      CommandGetImportedKeys command, CallContext context, ServerStreamListener listener) {
    stream(command, listener);
  }

  @Override
  public FlightInfo getFlightInfoCrossReference(
      CommandGetCrossReference request, CallContext context, FlightDescriptor descriptor) {
    return info(request, descriptor);
  }

  @Override
  public void getStreamCrossReference(
      CommandGetCrossReference command, CallContext context, ServerStreamListener listener) {
    stream(command, listener);
  }
}
