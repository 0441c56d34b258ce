package dev.lake.flight.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.channels.Channels;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo;
import org.apache.arrow.flight.sql.util.TableRef;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The metadata commands over a real Flight server on loopback, read by FlightSqlClient and JDBC. */
class FlightSqlMetadataServerTest {
  private static final Schema TRIPS =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("fare", new ArrowType.Decimal(12, 2, 128)),
              Field.nullable("started", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
              Field.nullable("city", ArrowType.Utf8.INSTANCE)));
  private static final List<TableInfo> TABLES =
      List.of(
          new TableInfo("trips", TRIPS),
          new TableInfo("users", new Schema(List.of(Field.nullable("name", ArrowType.Utf8.INSTANCE)))));

  private static BufferAllocator allocator;
  private static BufferAllocator serverAllocator;
  private static FlightServer server;
  private static FlightSqlClient client;

  @BeforeAll
  static void startServer() throws Exception {
    allocator = new RootAllocator();
    serverAllocator = allocator.newChildAllocator("server", 0, Long.MAX_VALUE);
    FlightSqlMetadata metadata = new FlightSqlMetadata(() -> TABLES, "0.1.0-test");
    server =
        FlightServer.builder(
                serverAllocator,
                Location.forGrpcInsecure("127.0.0.1", 0),
                new MetadataOnlyProducer(metadata, serverAllocator))
            .build()
            .start();
    client =
        new FlightSqlClient(
            FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.getPort()))
                .build());
  }

  @AfterAll
  static void stopServer() throws Exception {
    client.close();
    server.close();
    serverAllocator.close();
    allocator.close();
  }

  /** Reads every batch of the info's single endpoint. */
  private static void read(FlightInfo info, java.util.function.Consumer<VectorSchemaRoot> batch)
      throws Exception {
    assertThat(info.getEndpoints()).hasSize(1);
    try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
      while (stream.next()) {
        batch.accept(stream.getRoot());
      }
    }
  }

  @Test
  void clientReadsAnAnswerForEverySqlInfoKey() throws Exception {
    Map<Integer, SqlInfoValue> streamed = new LinkedHashMap<>();
    FlightInfo info = client.getSqlInfo();
    assertThat(info.getSchemaOptional()).contains(Schemas.GET_SQL_INFO_SCHEMA);
    read(info, root -> SqlInfoDecoder.decode(root, streamed));

    Map<SqlInfo, SqlInfoValue> answers = LakeSqlInfo.answers("0.1.0-test");
    for (SqlInfo key : SqlInfo.values()) {
      if (key != SqlInfo.UNRECOGNIZED) {
        assertThat(streamed).as(key.name()).containsKey(key.getNumber());
        assertThat(streamed.get(key.getNumber())).as(key.name()).isEqualTo(answers.get(key));
      }
    }
  }

  @Test
  void clientReadsTablesWithSchemasMatchedCaseInsensitively() throws Exception {
    List<String> names = new ArrayList<>();
    List<Schema> schemas = new ArrayList<>();
    read(
        client.getTables("LAKE", "MAIN", "TRI%", List.of("TABLE"), true),
        root -> {
          for (int i = 0; i < root.getRowCount(); i++) {
            names.add(((VarCharVector) root.getVector("table_name")).getObject(i).toString());
            byte[] bytes = ((VarBinaryVector) root.getVector("table_schema")).get(i);
            try {
              schemas.add(
                  MessageSerializer.deserializeSchema(
                      new ReadChannel(Channels.newChannel(new ByteArrayInputStream(bytes)))));
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        });
    assertThat(names).containsExactly("trips");
    assertThat(schemas).containsExactly(FlightSqlMetadata.withColumnMetadata("trips", TRIPS));
  }

  @Test
  void clientReadsFilteredTypeInfoAndEmptyKeys() throws Exception {
    List<String> typeNames = new ArrayList<>();
    read(
        client.getXdbcTypeInfo(Types.BIGINT),
        root -> {
          for (int i = 0; i < root.getRowCount(); i++) {
            typeNames.add(((VarCharVector) root.getVector("type_name")).getObject(i).toString());
          }
        });
    assertThat(typeNames).containsExactly("BIGINT");

    int[] keyRows = {0};
    FlightInfo keys = client.getPrimaryKeys(TableRef.of("lake", "main", "trips"));
    assertThat(keys.getSchemaOptional()).contains(Schemas.GET_PRIMARY_KEYS_SCHEMA);
    read(keys, root -> keyRows[0] += root.getRowCount());
    assertThat(keyRows[0]).isZero();
  }

  private static Connection jdbc() throws Exception {
    return DriverManager.getConnection(
        "jdbc:arrow-flight-sql://127.0.0.1:" + server.getPort() + "/?useEncryption=false");
  }

  @Test
  void everyJdbcDatabaseMetaDataGetterAnswers() throws Exception {
    Set<Class<?>> simple = Set.of(boolean.class, int.class, long.class, String.class);
    Map<String, Throwable> failures = new LinkedHashMap<>();
    int called = 0;
    try (Connection connection = jdbc()) {
      DatabaseMetaData md = connection.getMetaData();
      for (Method method : DatabaseMetaData.class.getMethods()) {
        if (method.getParameterCount() == 0 && simple.contains(method.getReturnType())) {
          called++;
          try {
            method.invoke(md);
          } catch (InvocationTargetException e) {
            failures.put(method.getName(), e.getCause());
          }
        }
      }
      assertThat(md.getDatabaseProductName()).isEqualTo("lake");
      assertThat(md.getDatabaseProductVersion()).isEqualTo("0.1.0-test");
      assertThat(md.isReadOnly()).isFalse(); // bulk ingest writes
      assertThat(md.supportsTransactions()).isFalse();
      assertThat(md.getIdentifierQuoteString()).isEqualTo("\"");
      assertThat(md.supportsFullOuterJoins()).isTrue();
      assertThat(md.supportsLimitedOuterJoins()).isTrue();
      assertThat(md.getDefaultTransactionIsolation()).isEqualTo(Connection.TRANSACTION_NONE);
      assertThat(md.supportsConvert(Types.VARCHAR, Types.DATE)).isTrue();
      assertThat(md.getNumericFunctions()).contains("ABS");
    }
    assertThat(called).isGreaterThan(100);
    assertThat(failures).isEmpty();
  }

  @Test
  void jdbcListsTablesAndColumnsWithTypesAndNullability() throws Exception {
    try (Connection connection = jdbc()) {
      DatabaseMetaData md = connection.getMetaData();
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, null, "%", null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_CAT") + "." + rs.getString("TABLE_SCHEM") + "."
              + rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
        }
      }
      assertThat(tables).containsExactly("lake.main.trips:TABLE", "lake.main.users:TABLE");

      List<String> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, null, "TRIPS", null)) {
        while (rs.next()) {
          columns.add(
              rs.getString("COLUMN_NAME") + " " + rs.getInt("DATA_TYPE") + " "
                  + rs.getString("TYPE_NAME") + " " + rs.getInt("COLUMN_SIZE") + " "
                  + rs.getInt("DECIMAL_DIGITS") + " " + rs.getString("IS_NULLABLE"));
        }
      }
      assertThat(columns)
          .containsExactly(
              "id " + Types.BIGINT + " BIGINT 19 0 NO",
              "fare " + Types.DECIMAL + " DECIMAL 12 2 YES",
              "started " + Types.TIMESTAMP + " TIMESTAMP 26 6 YES",
              "city " + Types.VARCHAR + " VARCHAR 65536 0 YES");

      try (ResultSet schemas = md.getSchemas();
          ResultSet catalogs = md.getCatalogs()) {
        assertThat(schemas.next()).isTrue();
        assertThat(schemas.getString("TABLE_SCHEM")).isEqualTo("main");
        assertThat(catalogs.next()).isTrue();
        assertThat(catalogs.getString("TABLE_CAT")).isEqualTo("lake");
      }
    }
  }
}
