package dev.lake.flight.metadata;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
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
import org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Answers the Flight SQL metadata commands for lake: one catalog {@code lake}, one schema {@code
 * main}, tables of type {@code TABLE}, a read-only SQL surface.
 *
 * <p>The producer delegates each metadata command twice: {@link #flightInfo} from {@code
 * getFlightInfoXxx}, whose one endpoint's ticket is the command packed as a protobuf {@code Any};
 * and {@link #stream} from DoGet with that ticket's {@code Any} (check {@link #handles} first) or
 * from {@code getStreamXxx} with the command. {@code getStreamCatalogs} and {@code
 * getStreamTableTypes} get no command: pass {@code CommandGetCatalogs.getDefaultInstance()} and
 * {@code CommandGetTableTypes.getDefaultInstance()}. Every method takes either the command itself or
 * an {@code Any} that packs it.
 */
public final class FlightSqlMetadata {

  /** lake's only catalog. */
  public static final String CATALOG = "lake";

  /** lake's only schema. */
  public static final String SCHEMA = "main";

  /** The type of every lake table. */
  public static final String TABLE_TYPE = "TABLE";

  private static final List<Class<? extends Message>> COMMANDS =
      List.of(
          CommandGetSqlInfo.class,
          CommandGetCatalogs.class,
          CommandGetDbSchemas.class,
          CommandGetTables.class,
          CommandGetTableTypes.class,
          CommandGetPrimaryKeys.class,
          CommandGetExportedKeys.class,
          CommandGetImportedKeys.class,
          CommandGetCrossReference.class,
          CommandGetXdbcTypeInfo.class);

  private final Supplier<List<TableInfo>> tables;
  private final Map<SqlInfo, SqlInfoValue> sqlInfo;

  /**
   * Creates the metadata service.
   *
   * @param tables the current tables of {@code lake.main}, read once per GetTables call (the
   *     catalog cache's snapshot; an exception it throws propagates from {@link #stream})
   * @param productVersion lake's version, reported as FLIGHT_SQL_SERVER_VERSION
   */
  public FlightSqlMetadata(Supplier<List<TableInfo>> tables, String productVersion) {
    this.tables = Objects.requireNonNull(tables, "tables");
    this.sqlInfo = LakeSqlInfo.answers(productVersion);
  }

  /**
   * Returns {@code schema} with Flight SQL column metadata (catalog, schema, table, SQL type name,
   * precision, scale, case sensitivity, searchable, read-only) on each top-level field, for GetTables
   * and for query result schemas.
   *
   * @param table the source table, or null for computed columns (then no catalog/schema/table)
   * @param schema the Arrow schema; its existing metadata is kept
   * @return the annotated schema
   */
  public static Schema withColumnMetadata(String table, Schema schema) {
    return ColumnMetadata.withColumnMetadata(table, schema);
  }

  /**
   * Whether {@code command} is one of the metadata commands this class answers, or an {@code Any}
   * that packs one (judged by its type URL only).
   */
  public boolean handles(Message command) {
    if (command instanceof Any any) {
      return COMMANDS.stream().anyMatch(any::is);
    }
    return command != null && COMMANDS.contains(command.getClass());
  }

  /**
   * The result schema of a metadata command, exactly as {@code FlightSqlProducer.Schemas} defines.
   *
   * @throws LakeException (INVALID_ARGUMENT) if {@link #handles} is false for the command, or an {@code
   *     Any}'s payload does not parse
   */
  public Schema schema(Message message) {
    Message command = unpack(message);
    if (command instanceof CommandGetSqlInfo) {
      return Schemas.GET_SQL_INFO_SCHEMA;
    } else if (command instanceof CommandGetCatalogs) {
      return Schemas.GET_CATALOGS_SCHEMA;
    } else if (command instanceof CommandGetDbSchemas) {
      return Schemas.GET_SCHEMAS_SCHEMA;
    } else if (command instanceof CommandGetTables getTables) {
      return getTables.getIncludeSchema()
          ? Schemas.GET_TABLES_SCHEMA
          : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA;
    } else if (command instanceof CommandGetTableTypes) {
      return Schemas.GET_TABLE_TYPES_SCHEMA;
    } else if (command instanceof CommandGetPrimaryKeys) {
      return Schemas.GET_PRIMARY_KEYS_SCHEMA;
    } else if (command instanceof CommandGetExportedKeys) {
      return Schemas.GET_EXPORTED_KEYS_SCHEMA;
    } else if (command instanceof CommandGetImportedKeys) {
      return Schemas.GET_IMPORTED_KEYS_SCHEMA;
    } else if (command instanceof CommandGetCrossReference) {
      return Schemas.GET_CROSS_REFERENCE_SCHEMA;
    } else if (command instanceof CommandGetXdbcTypeInfo) {
      return Schemas.GET_TYPE_INFO_SCHEMA;
    }
    throw notMetadata(command);
  }

  /**
   * The FlightInfo for a metadata command: its result schema and one endpoint, without a location
   * (same server), whose ticket is {@code Any.pack(command)}. Sizes are unknown (-1).
   *
   * @throws LakeException (INVALID_ARGUMENT) if {@link #handles} is false for the command, or an {@code
   *     Any}'s payload does not parse
   */
  public FlightInfo flightInfo(Message message, FlightDescriptor descriptor) {
    Message command = unpack(message);
    Schema schema = schema(command);
    Ticket ticket = new Ticket(Any.pack(command).toByteArray());
    return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
  }

  /**
   * Streams a metadata command's result (small batches from {@code allocator}) and completes the
   * listener. On failure it throws and leaves the listener for the caller to fail, so that errors
   * are mapped to status codes in one place. If the client cancels, it stops without completing.
   *
   * @throws LakeException (INVALID_ARGUMENT) if {@link #handles} is false for the command, or an {@code
   *     Any}'s payload does not parse
   */
  public void stream(Message message, BufferAllocator allocator, ServerStreamListener listener) {
    Message command = unpack(message);
    Schema schema = schema(command);
    if (command instanceof CommandGetSqlInfo getSqlInfo) {
      ResultSender.send(
          schema, sqlInfoRows(getSqlInfo.getInfoList()), SqlInfoWriter::fill, allocator, listener);
    } else if (command instanceof CommandGetCatalogs) {
      ResultSender.send(
          schema,
          List.of(CATALOG),
          (root, rows) -> CatalogListing.fillStrings(root, "catalog_name", rows),
          allocator,
          listener);
    } else if (command instanceof CommandGetDbSchemas getSchemas) {
      ResultSender.send(
          schema,
          CatalogListing.schemas(getSchemas),
          CatalogListing::fillSchemas,
          allocator,
          listener);
    } else if (command instanceof CommandGetTables getTables) {
      ResultSender.send(
          schema,
          CatalogListing.tables(getTables, tables.get()),
          CatalogListing::fillTables,
          allocator,
          listener);
    } else if (command instanceof CommandGetTableTypes) {
      ResultSender.send(
          schema,
          List.of(TABLE_TYPE),
          (root, rows) -> CatalogListing.fillStrings(root, "table_type", rows),
          allocator,
          listener);
    } else if (command instanceof CommandGetXdbcTypeInfo getTypeInfo) {
      ResultSender.send(
          schema, XdbcTypeInfo.select(getTypeInfo), XdbcTypeInfo::fill, allocator, listener);
    } else {
      // Primary, exported, imported keys and cross references: lake has no keys.
      ResultSender.<Object>send(
          schema, List.of(), (root, rows) -> root.setRowCount(0), allocator, listener);
    }
  }

  /**
   * The requested SqlInfo rows in the order asked, or every key in number order when none is
   * asked. Keys lake does not know (a newer client's, or a vendor's) are left out.
   */
  private List<SqlInfoWriter.Row> sqlInfoRows(List<Integer> requested) {
    if (requested.isEmpty()) {
      return sqlInfo.entrySet().stream()
          .map(e -> new SqlInfoWriter.Row(e.getKey().getNumber(), e.getValue()))
          .sorted(Comparator.comparingInt(SqlInfoWriter.Row::infoName))
          .toList();
    }
    return requested.stream()
        .filter(n -> SqlInfo.forNumber(n) != null && sqlInfo.containsKey(SqlInfo.forNumber(n)))
        .map(n -> new SqlInfoWriter.Row(n, sqlInfo.get(SqlInfo.forNumber(n))))
        .toList();
  }

  /** The command an {@code Any} packs (if it packs a metadata command), else the message itself. */
  private static Message unpack(Message message) {
    if (!(message instanceof Any any)) {
      return message;
    }
    for (Class<? extends Message> type : COMMANDS) {
      if (any.is(type)) {
        try {
          return any.unpack(type);
        } catch (InvalidProtocolBufferException e) {
          throw new LakeException(ErrorCode.INVALID_ARGUMENT,
              "malformed " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
      }
    }
    return message;
  }

  private static LakeException notMetadata(Message command) {
    String type =
        command instanceof Any any
            ? any.getTypeUrl()
            : command == null ? "null" : command.getDescriptorForType().getFullName();
    return new LakeException(ErrorCode.INVALID_ARGUMENT, "not a Flight SQL metadata command: " + type);
  }
}
