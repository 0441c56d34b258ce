package dev.lake.flight.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
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
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FlightSqlMetadataTest {
  private static final Schema TRIPS =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("fare", new ArrowType.Decimal(12, 2, 128))));
  private static final Schema USERS =
      new Schema(List.of(Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  private final BufferAllocator allocator = new RootAllocator();
  private List<TableInfo> tables =
      List.of(
          new TableInfo("users", USERS),
          new TableInfo("trips", TRIPS),
          new TableInfo("trip_legs", USERS));
  private final FlightSqlMetadata metadata = new FlightSqlMetadata(() -> tables, "0.1.0");

  @AfterEach
  void closeAllocator() {
    allocator.close();
  }

  static Stream<Arguments> commands() {
    return Stream.of(
        Arguments.of(CommandGetSqlInfo.getDefaultInstance(), Schemas.GET_SQL_INFO_SCHEMA),
        Arguments.of(CommandGetCatalogs.getDefaultInstance(), Schemas.GET_CATALOGS_SCHEMA),
        Arguments.of(CommandGetDbSchemas.getDefaultInstance(), Schemas.GET_SCHEMAS_SCHEMA),
        Arguments.of(CommandGetTables.getDefaultInstance(), Schemas.GET_TABLES_SCHEMA_NO_SCHEMA),
        Arguments.of(
            CommandGetTables.newBuilder().setIncludeSchema(true).build(),
            Schemas.GET_TABLES_SCHEMA),
        Arguments.of(CommandGetTableTypes.getDefaultInstance(), Schemas.GET_TABLE_TYPES_SCHEMA),
        Arguments.of(
            CommandGetPrimaryKeys.newBuilder().setTable("trips").build(),
            Schemas.GET_PRIMARY_KEYS_SCHEMA),
        Arguments.of(
            CommandGetExportedKeys.newBuilder().setTable("trips").build(),
            Schemas.GET_EXPORTED_KEYS_SCHEMA),
        Arguments.of(
            CommandGetImportedKeys.newBuilder().setTable("trips").build(),
            Schemas.GET_IMPORTED_KEYS_SCHEMA),
        Arguments.of(
            CommandGetCrossReference.newBuilder().setPkTable("a").setFkTable("b").build(),
            Schemas.GET_CROSS_REFERENCE_SCHEMA),
        Arguments.of(CommandGetXdbcTypeInfo.getDefaultInstance(), Schemas.GET_TYPE_INFO_SCHEMA));
  }

  @ParameterizedTest
  @MethodSource("commands")
  void flightInfoHasTheFlightSqlSchemaAndATicketHoldingTheCommand(Message command, Schema schema)
      throws Exception {
    FlightDescriptor descriptor = FlightDescriptor.command(Any.pack(command).toByteArray());
    FlightInfo info = metadata.flightInfo(command, descriptor);

    assertThat(metadata.handles(command)).isTrue();
    assertThat(info.getSchemaOptional()).contains(schema);
    assertThat(info.getDescriptor()).isEqualTo(descriptor);
    assertThat(info.getEndpoints()).hasSize(1);
    assertThat(info.getEndpoints().get(0).getLocations()).isEmpty();
    Any ticket = Any.parseFrom(info.getEndpoints().get(0).getTicket().getBytes());
    assertThat(ticket.unpack(command.getClass())).isEqualTo(command);
  }

  @ParameterizedTest
  @MethodSource("commands")
  void streamSendsTheFlightSqlSchemaAndCompletes(Message command, Schema schema) {
    try (CollectingListener listener = run(command)) {
      assertThat(listener.schema()).isEqualTo(schema);
      assertThat(listener.batches()).isNotEmpty().allSatisfy(b -> assertThat(b.getSchema()).isEqualTo(schema));
      assertThat(listener.isCompleted()).isTrue();
      assertThat(listener.error()).isNull();
    }
  }

  @Test
  void keyCommandsReturnNoRows() {
    for (Message command :
        List.of(
            CommandGetPrimaryKeys.newBuilder().setTable("trips").build(),
            CommandGetExportedKeys.newBuilder().setTable("trips").build(),
            CommandGetImportedKeys.newBuilder().setTable("trips").build(),
            CommandGetCrossReference.newBuilder().setPkTable("trips").setFkTable("users").build())) {
      try (CollectingListener listener = run(command)) {
        assertThat(listener.totalRows()).as(command.getClass().getSimpleName()).isZero();
      }
    }
  }

  @Test
  void catalogsListLakeAndTableTypesListTable() {
    try (CollectingListener catalogs = run(CommandGetCatalogs.getDefaultInstance());
        CollectingListener types = run(CommandGetTableTypes.getDefaultInstance())) {
      assertThat(catalogs.column("catalog_name")).containsExactly("lake");
      assertThat(types.column("table_type")).containsExactly("TABLE");
    }
  }

  @Test
  void schemasHonourTheCatalogAndThePatternCaseInsensitively() {
    assertThat(schemas(CommandGetDbSchemas.getDefaultInstance())).containsExactly("lake/main");
    assertThat(schemas(CommandGetDbSchemas.newBuilder().setCatalog("LAKE").build()))
        .containsExactly("lake/main");
    assertThat(schemas(CommandGetDbSchemas.newBuilder().setDbSchemaFilterPattern("M_I%").build()))
        .containsExactly("lake/main");
    assertThat(schemas(CommandGetDbSchemas.newBuilder().setCatalog("other").build())).isEmpty();
    assertThat(schemas(CommandGetDbSchemas.newBuilder().setCatalog("").build())).isEmpty();
    assertThat(schemas(CommandGetDbSchemas.newBuilder().setDbSchemaFilterPattern("ma").build()))
        .isEmpty();
  }

  @Test
  void tablesAreListedInNameOrderAndFilteredByPatternCaseInsensitively() {
    assertThat(tableNames(CommandGetTables.getDefaultInstance()))
        .containsExactly("trip_legs", "trips", "users");
    assertThat(tableNames(CommandGetTables.newBuilder().setTableNameFilterPattern("TRIP%").build()))
        .containsExactly("trip_legs", "trips");
    assertThat(tableNames(CommandGetTables.newBuilder().setTableNameFilterPattern("TRIP_").build()))
        .containsExactly("trips");
    assertThat(
            tableNames(CommandGetTables.newBuilder().setTableNameFilterPattern("TRIP\\_%").build()))
        .containsExactly("trip_legs");
    assertThat(tableNames(CommandGetTables.newBuilder().setTableNameFilterPattern("USERS").build()))
        .containsExactly("users");
  }

  @Test
  void tablesHonourCatalogSchemaAndTableTypeFilters() {
    assertThat(
            tableNames(
                CommandGetTables.newBuilder()
                    .setCatalog("LAKE")
                    .setDbSchemaFilterPattern("MAIN")
                    .addTableTypes("table")
                    .build()))
        .containsExactly("trip_legs", "trips", "users");
    assertThat(tableNames(CommandGetTables.newBuilder().setCatalog("other").build())).isEmpty();
    assertThat(tableNames(CommandGetTables.newBuilder().setDbSchemaFilterPattern("x%").build()))
        .isEmpty();
    assertThat(tableNames(CommandGetTables.newBuilder().addTableTypes("VIEW").build())).isEmpty();
    assertThat(
            tableNames(
                CommandGetTables.newBuilder().addTableTypes("VIEW").addTableTypes("TABLE").build()))
        .hasSize(3);
  }

  @Test
  void tableRowsCarryCatalogSchemaAndType() {
    try (CollectingListener listener = run(CommandGetTables.getDefaultInstance())) {
      assertThat(listener.column("catalog_name")).containsOnly("lake");
      assertThat(listener.column("db_schema_name")).containsOnly("main");
      assertThat(listener.column("table_type")).containsOnly("TABLE");
    }
  }

  @Test
  void includedTableSchemaDeserializesToTheAnnotatedSchema() throws Exception {
    CommandGetTables command =
        CommandGetTables.newBuilder().setTableNameFilterPattern("trips").setIncludeSchema(true).build();
    try (CollectingListener listener = run(command)) {
      byte[] bytes = (byte[]) listener.column("table_schema").get(0);
      Schema read =
          MessageSerializer.deserializeSchema(
              new ReadChannel(Channels.newChannel(new ByteArrayInputStream(bytes))));
      assertThat(read).isEqualTo(FlightSqlMetadata.withColumnMetadata("trips", TRIPS));
      assertThat(read.findField("fare").getMetadata())
          .containsEntry("ARROW:FLIGHT:SQL:TABLE_NAME", "trips")
          .containsEntry("ARROW:FLIGHT:SQL:PRECISION", "12");
      assertThat(read.findField("id").isNullable()).isFalse();
    }
  }

  @Test
  void manyTablesAreSentInBatchesOfAtMostBatchRows() {
    int count = ResultSender.BATCH_ROWS * 2 + 5;
    List<TableInfo> many = new ArrayList<>();
    IntStream.range(0, count).forEach(i -> many.add(new TableInfo(String.format("t%05d", i), USERS)));
    tables = many;
    try (CollectingListener listener = run(CommandGetTables.getDefaultInstance())) {
      assertThat(listener.batches())
          .extracting(b -> b.getRowCount())
          .containsExactly(ResultSender.BATCH_ROWS, ResultSender.BATCH_ROWS, 5);
      assertThat(listener.column("table_name")).hasSize(count).isSorted();
    }
  }

  @Test
  void aCancelledStreamIsNeitherFilledNorCompleted() {
    try (CollectingListener listener = new CollectingListener(allocator)) {
      listener.cancel();
      metadata.stream(CommandGetTables.getDefaultInstance(), allocator, listener);
      assertThat(listener.batches()).isEmpty();
      assertThat(listener.isCompleted()).isFalse();
    }
  }

  @Test
  void aFailingTableSourcePropagatesWithoutCompletingTheListener() {
    FlightSqlMetadata failing =
        new FlightSqlMetadata(
            () -> {
              throw new IllegalStateException("registry unreachable");
            },
            "0.1.0");
    try (CollectingListener listener = new CollectingListener(allocator)) {
      assertThatThrownBy(
              () -> failing.stream(CommandGetTables.getDefaultInstance(), allocator, listener))
          .hasMessageContaining("registry unreachable");
      assertThat(listener.isCompleted()).isFalse();
    }
  }

  @Test
  void typeInfoListsEveryLakeTypeOrderedByDataType() {
    try (CollectingListener listener = run(CommandGetXdbcTypeInfo.getDefaultInstance())) {
      assertThat(listener.column("type_name"))
          .containsExactly(
              "TINYINT", "BIGINT", "VARBINARY", "BINARY", "DECIMAL", "INTEGER", "SMALLINT", "REAL",
              "DOUBLE", "VARCHAR", "BOOLEAN", "DATE", "TIME", "TIMESTAMP",
              "TIMESTAMP WITH LOCAL TIME ZONE");
      assertThat(listener.column("data_type"))
          .containsExactly(
              Types.TINYINT, Types.BIGINT, Types.VARBINARY, Types.BINARY, Types.DECIMAL,
              Types.INTEGER, Types.SMALLINT, Types.REAL, Types.DOUBLE, Types.VARCHAR, Types.BOOLEAN,
              Types.DATE, Types.TIME, Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE);
    }
  }

  @Test
  void typeInfoFilterReturnsOnlyTheRequestedDataType() {
    try (CollectingListener varchar =
            run(CommandGetXdbcTypeInfo.newBuilder().setDataType(Types.VARCHAR).build());
        CollectingListener none =
            run(CommandGetXdbcTypeInfo.newBuilder().setDataType(Types.CLOB).build())) {
      assertThat(varchar.column("type_name")).containsExactly("VARCHAR");
      assertThat(varchar.column("literal_prefix")).containsExactly("'");
      assertThat(varchar.column("case_sensitive")).containsExactly(true);
      assertThat(varchar.column("create_params").get(0).toString()).isEqualTo("[\"length\"]");
      assertThat(none.totalRows()).isZero();
    }
  }

  @Test
  void typeInfoDescribesDecimalAndTimestampPrecisely() {
    try (CollectingListener decimal =
            run(CommandGetXdbcTypeInfo.newBuilder().setDataType(Types.DECIMAL).build());
        CollectingListener timestamp =
            run(CommandGetXdbcTypeInfo.newBuilder().setDataType(Types.TIMESTAMP).build())) {
      assertThat(decimal.column("column_size")).containsExactly(38);
      assertThat(decimal.column("maximum_scale")).containsExactly(38);
      assertThat(decimal.column("num_prec_radix")).containsExactly(10);
      assertThat(decimal.column("unsigned_attribute")).containsExactly(false);
      assertThat(decimal.column("literal_prefix")).containsExactly((Object) null);
      assertThat(timestamp.column("literal_prefix")).containsExactly("TIMESTAMP '");
      assertThat(timestamp.column("sql_data_type")).containsExactly(9);
      assertThat(timestamp.column("datetime_subcode")).containsExactly(3);
      assertThat(timestamp.column("unsigned_attribute")).containsExactly((Object) null);
    }
  }

  @Test
  void anAnyPackingACommandIsAnsweredLikeTheCommand() throws Exception {
    CommandGetTables command =
        CommandGetTables.newBuilder().setTableNameFilterPattern("US%").build();
    Any packed = Any.pack(command);

    assertThat(metadata.handles(packed)).isTrue();
    assertThat(metadata.schema(packed)).isEqualTo(Schemas.GET_TABLES_SCHEMA_NO_SCHEMA);
    FlightInfo info = metadata.flightInfo(packed, FlightDescriptor.command(packed.toByteArray()));
    Any ticket = Any.parseFrom(info.getEndpoints().get(0).getTicket().getBytes());
    assertThat(ticket).isEqualTo(packed);
    assertThat(tableNames(packed)).containsExactly("users");
  }

  @Test
  void anAnyPackingSomethingElseIsNotHandled() {
    Any other = Any.pack(TicketStatementQuery.getDefaultInstance());
    assertThat(metadata.handles(other)).isFalse();
    assertThatThrownBy(() -> metadata.schema(other))
        .isInstanceOf(dev.lake.registry.error.LakeException.class)
        .hasMessageContaining("TicketStatementQuery");
  }

  @Test
  void anAnyWithAMalformedPayloadIsAnIllegalArgument() {
    Any malformed =
        Any.newBuilder()
            .setTypeUrl(Any.pack(CommandGetTables.getDefaultInstance()).getTypeUrl())
            .setValue(ByteString.copyFrom(new byte[] {0x1a, 0x7f, 0x41}))
            .build();
    assertThat(metadata.handles(malformed)).isTrue();
    try (CollectingListener listener = new CollectingListener(allocator)) {
      assertThatThrownBy(() -> metadata.stream(malformed, allocator, listener))
          .isInstanceOf(dev.lake.registry.error.LakeException.class)
          .hasMessageContaining("malformed CommandGetTables");
      assertThat(listener.schema()).isNull();
    }
  }

  @Test
  void aNonMetadataCommandIsRejected() {
    Message command = ActionClosePreparedStatementRequest.getDefaultInstance();
    assertThat(metadata.handles(command)).isFalse();
    assertThatThrownBy(() -> metadata.flightInfo(command, FlightDescriptor.command(new byte[0])))
        .isInstanceOf(dev.lake.registry.error.LakeException.class);
  }

  private CollectingListener run(Message command) {
    CollectingListener listener = new CollectingListener(allocator);
    metadata.stream(command, allocator, listener);
    return listener;
  }

  private List<String> schemas(CommandGetDbSchemas command) {
    try (CollectingListener listener = run(command)) {
      List<Object> catalogs = listener.column("catalog_name");
      List<Object> names = listener.column("db_schema_name");
      return IntStream.range(0, names.size()).mapToObj(i -> catalogs.get(i) + "/" + names.get(i)).toList();
    }
  }

  private List<Object> tableNames(Message command) {
    try (CollectingListener listener = run(command)) {
      return listener.column("table_name");
    }
  }
}
