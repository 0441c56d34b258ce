package dev.lake.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 21 items 3, 4 and 7 through Arrow Java's FlightSqlClient (the pyarrow suite checks them from Python). */
class ExactClientAnswersTest {
  private static final String PANDAS = "{\"index_columns\": [], \"columns\": [{\"name\": \"n\", \"pandas_type\":"
      + " \"int64\", \"numpy_type\": \"Int64\"}], \"pandas_version\": \"3.0.0\"}";

  @TempDir
  static Path dataDir;
  private static LakeTestServer server;
  private static FlightTestClient client;

  @BeforeAll
  static void start() throws Exception {
    server = LakeTestServer.start(dataDir);
    client = server.client();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    server.close();
  }

  @Test
  void storedTypesAndSchemaMetadataComeBackAsStored() throws Exception {
    Schema stored = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("s", ArrowType.LargeUtf8.INSTANCE), Field.nullable("b", ArrowType.LargeBinary.INSTANCE),
        Field.nullable("n", new ArrowType.Int(64, true))), Map.of("pandas", PANDAS));
    BufferAllocator allocator = client.allocator();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(stored, allocator)) {
      root.allocateNew();
      for (int i = 0; i < 3; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        ((LargeVarCharVector) root.getVector("s")).setSafe(i, ("s" + i).getBytes(StandardCharsets.UTF_8));
        ((LargeVarBinaryVector) root.getVector("b")).setSafe(i, new byte[] {(byte) i});
        ((BigIntVector) root.getVector("n")).setSafe(i, Long.MAX_VALUE - i);
      }
      ((LargeVarCharVector) root.getVector("s")).setNull(2);
      root.setRowCount(3);
      client.ingest("wide_values", root, FlightTestClient.create());
    }
    Schema listed = tableSchema("wide_values");
    assertThat(listed.getCustomMetadata()).containsEntry("pandas", PANDAS);
    for (String sql : List.of("SELECT * FROM wide_values", "SELECT * FROM wide_values ORDER BY id",
        "SELECT id, s, b, n FROM wide_values WHERE id >= 0", "SELECT * FROM wide_values LIMIT 2")) {
      FlightInfo info = client.sql().execute(sql, client.auth());
      Schema streamed = streamSchema(info);
      for (Schema schema : List.of(info.getSchemaOptional().orElseThrow(), streamed)) {
        assertThat(types(schema)).as(sql).isEqualTo(types(listed));
        assertThat(schema.getCustomMetadata()).as("schema metadata of %s", sql).containsEntry("pandas", PANDAS);
      }
    }
    // computed columns keep a stored large type when they are a stored column, and carry no table metadata
    FlightInfo computed = client.sql().execute("SELECT s, id + 1 AS next FROM wide_values ORDER BY next", client.auth());
    assertThat(computed.getSchemaOptional().orElseThrow().findField("s").getType())
        .isEqualTo(ArrowType.LargeUtf8.INSTANCE);
    assertThat(streamSchema(computed).findField("s").getType()).isEqualTo(ArrowType.LargeUtf8.INSTANCE);
    assertThat(computed.getSchemaOptional().orElseThrow().getCustomMetadata()).doesNotContainKey("pandas");
    assertThat(client.rows("SELECT s, b, n FROM wide_values ORDER BY id")).extracting(r -> String.valueOf(r.get(0)))
        .containsExactly("s0", "s1", "null");
    assertThat(client.rows("SELECT UPPER(s) AS u FROM wide_values WHERE id = 1")).containsExactly(
        List.of(new org.apache.arrow.vector.util.Text("S1")));
  }

  @Test
  void dictionaryEncodedColumnsIngestAndQueryAsValues() throws Exception {
    BufferAllocator allocator = client.allocator();
    DictionaryEncoding encoding = new DictionaryEncoding(7L, false, new ArrowType.Int(8, true));
    Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        new Field("c", new FieldType(true, new ArrowType.Int(8, true), encoding), null)));
    try (LargeVarCharVector values = new LargeVarCharVector("c-values", allocator);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      values.allocateNew();
      values.setSafe(0, "red".getBytes(StandardCharsets.UTF_8));
      values.setSafe(1, "green".getBytes(StandardCharsets.UTF_8));
      values.setValueCount(2);
      DictionaryProvider.MapDictionaryProvider dictionaries =
          new DictionaryProvider.MapDictionaryProvider(new Dictionary(values, encoding));
      root.allocateNew();
      int[] codes = {0, 1, 0, -1};
      for (int i = 0; i < codes.length; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        if (codes[i] < 0) {
          root.getVector("c").setNull(i);
        } else {
          ((TinyIntVector) root.getVector("c")).setSafe(i, codes[i]);
        }
      }
      root.setRowCount(codes.length);
      FlightSql.CommandStatementIngest command = FlightSql.CommandStatementIngest.newBuilder().setTable("colours")
          .setTableDefinitionOptions(FlightTestClient.create()).build();
      SyncPutListener ack = new SyncPutListener();
      var put = client.flight().startPut(FlightDescriptor.command(Any.pack(command).toByteArray()), root,
          dictionaries, ack, client.auth());
      put.putNext();
      put.completed();
      put.getResult();
      ack.close();
    }
    assertThat(tableSchema("colours").findField("c").getType()).isEqualTo(ArrowType.LargeUtf8.INSTANCE);
    assertThat(tableSchema("colours").findField("c").getDictionary()).isNull();
    assertThat(client.rows("SELECT c FROM colours ORDER BY id")).extracting(r -> String.valueOf(r.get(0)))
        .containsExactly("red", "green", "red", "null");
    assertThat(client.rows("SELECT c, COUNT(*) AS n FROM colours WHERE c IS NOT NULL GROUP BY c ORDER BY c"))
        .extracting(r -> r.get(0) + "=" + r.get(1)).containsExactly("green=1", "red=2");
  }

  @Test
  void sqlInfoAndActionsTellTheTruth() throws Exception {
    FlightInfo info = client.sql().getSqlInfo(new SqlInfo[] {SqlInfo.FLIGHT_SQL_SERVER_READ_ONLY,
        SqlInfo.FLIGHT_SQL_SERVER_CANCEL, SqlInfo.FLIGHT_SQL_SERVER_BULK_INGESTION}, client.auth());
    Map<Integer, Object> answers = new java.util.HashMap<>();
    try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
      while (stream.next()) {
        VectorSchemaRoot root = stream.getRoot();
        for (int r = 0; r < root.getRowCount(); r++) {
          answers.put(((org.apache.arrow.vector.UInt4Vector) root.getVector("info_name")).get(r),
              ((DenseUnionVector) root.getVector("value")).getObject(r));
        }
      }
    }
    assertThat(answers).containsEntry(SqlInfo.FLIGHT_SQL_SERVER_READ_ONLY_VALUE, false)
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_CANCEL_VALUE, true)
        .containsEntry(SqlInfo.FLIGHT_SQL_SERVER_BULK_INGESTION_VALUE, true);

    Set<String> listed = new HashSet<>();
    for (ActionType type : client.flight().listActions(client.auth())) {
      listed.add(type.getType());
    }
    assertThat(listed).contains("CreatePreparedStatement", "ClosePreparedStatement", "CancelFlightInfo",
        "CancelQuery", "SetSessionOptions", "GetSessionOptions", "CloseSession", "lake.status")
        .doesNotContain("BeginTransaction", "EndTransaction", "BeginSavepoint", "EndSavepoint",
            "CreatePreparedSubstraitPlan");

    Map<String, com.google.protobuf.Message> unsupported = Map.of(
        "BeginTransaction", FlightSql.ActionBeginTransactionRequest.getDefaultInstance(),
        "EndTransaction", FlightSql.ActionEndTransactionRequest.newBuilder()
            .setTransactionId(com.google.protobuf.ByteString.copyFromUtf8("t")).build(),
        "BeginSavepoint", FlightSql.ActionBeginSavepointRequest.newBuilder()
            .setTransactionId(com.google.protobuf.ByteString.copyFromUtf8("t")).setName("s").build(),
        "EndSavepoint", FlightSql.ActionEndSavepointRequest.newBuilder()
            .setSavepointId(com.google.protobuf.ByteString.copyFromUtf8("s")).build(),
        "CreatePreparedSubstraitPlan", FlightSql.ActionCreatePreparedSubstraitPlanRequest.getDefaultInstance());
    for (Map.Entry<String, com.google.protobuf.Message> action : unsupported.entrySet()) {
      assertThatThrownBy(() -> client.flight().doAction(new Action(action.getKey(),
          Any.pack(action.getValue()).toByteArray()), client.auth()).forEachRemaining(r -> { }))
          .as(action.getKey())
          .isInstanceOfSatisfying(FlightRuntimeException.class, e -> {
            assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNIMPLEMENTED);
            assertThat(e.getMessage()).containsAnyOf("transactions", "Substrait");
          });
    }
    FlightSql.CommandStatementSubstraitPlan plan = FlightSql.CommandStatementSubstraitPlan.getDefaultInstance();
    assertThatThrownBy(() -> client.flight().getInfo(FlightDescriptor.command(Any.pack(plan).toByteArray()),
        client.auth()))
        .isInstanceOfSatisfying(FlightRuntimeException.class, e -> {
          assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNIMPLEMENTED);
          assertThat(e.getMessage()).contains("Substrait");
        });
  }

  @Test
  void preparedStatementRunsEveryBoundParameterRow() throws Exception {
    Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("name", ArrowType.Utf8.INSTANCE)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, client.allocator())) {
      root.allocateNew();
      for (int i = 0; i < 10; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        ((VarCharVector) root.getVector("name")).setSafe(i, ("n" + i).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(10);
      client.ingest("people", root, FlightTestClient.create());
    }
    Schema parameters = new Schema(List.of(Field.nullable("p", new ArrowType.Int(64, true))));
    try (FlightSqlClient.PreparedStatement prepared = client.sql().prepare(
            "SELECT id, name FROM people WHERE id = ?", client.auth());
        VectorSchemaRoot bound = VectorSchemaRoot.create(parameters, client.allocator())) {
      bound.allocateNew();
      long[] ids = {7, 2, 42, 5};
      for (int i = 0; i < ids.length; i++) {
        ((BigIntVector) bound.getVector(0)).setSafe(i, ids[i]);
      }
      bound.setRowCount(ids.length);
      prepared.setParameters(bound);
      FlightInfo info = prepared.execute(client.auth());
      assertThat(info.getEndpoints()).as("one endpoint per parameter row").hasSize(4);
      List<String> rows = new ArrayList<>();
      for (FlightEndpoint endpoint : info.getEndpoints()) {
        try (FlightStream stream = client.sql().getStream(endpoint.getTicket(), client.auth())) {
          while (stream.next()) {
            for (int r = 0; r < stream.getRoot().getRowCount(); r++) {
              rows.add(stream.getRoot().getVector(0).getObject(r) + ":" + stream.getRoot().getVector(1).getObject(r));
            }
          }
        }
      }
      assertThat(rows).as("the results of every row, in the rows' order").containsExactly("7:n7", "2:n2", "5:n5");
      prepared.close(client.auth());
    }
  }

  private static Schema tableSchema(String table) throws Exception {
    FlightInfo info = client.sql().getTables(null, null, table, null, true, client.auth());
    try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
      while (stream.next()) {
        VectorSchemaRoot root = stream.getRoot();
        for (int r = 0; r < root.getRowCount(); r++) {
          if (root.getVector("table_name").getObject(r).toString().equals(table)) {
            byte[] bytes = ((org.apache.arrow.vector.VarBinaryVector) root.getVector("table_schema")).get(r);
            return org.apache.arrow.vector.ipc.message.MessageSerializer.deserializeSchema(
                new org.apache.arrow.vector.ipc.ReadChannel(java.nio.channels.Channels.newChannel(
                    new java.io.ByteArrayInputStream(bytes))));
          }
        }
      }
    }
    throw new AssertionError("GetTables does not list " + table);
  }

  private static Schema streamSchema(FlightInfo info) throws Exception {
    try (FlightStream stream = client.sql().getStream(info.getEndpoints().get(0).getTicket(), client.auth())) {
      Schema schema = stream.getSchema();
      while (stream.next()) {
        // drain
      }
      return schema;
    }
  }

  private static List<ArrowType> types(Schema schema) {
    return schema.getFields().stream().map(Field::getType).toList();
  }
}
