package dev.lake.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** A one-column table ({@code v BIGINT}) written and read through a real Flight SQL client. */
public final class LongTable {
  public static final Schema SCHEMA = new Schema(List.of(Field.nullable("v", new ArrowType.Int(64, true))));

  private LongTable() {}

  /** Ingests {@code first .. first+count-1} as one batch; returns the acknowledged row count. */
  public static long ingest(FlightTestClient client, String table, long first, int count,
      TableDefinitionOptions options) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, client.allocator())) {
      root.allocateNew();
      BigIntVector v = (BigIntVector) root.getVector(0);
      for (int i = 0; i < count; i++) {
        v.setSafe(i, first + i);
      }
      root.setRowCount(count);
      return client.ingest(table, root, options);
    }
  }

  /** Every value of the table, in the order the server sent them. */
  public static List<Long> values(FlightTestClient client, String table) throws Exception {
    return client.rows("SELECT v FROM " + table).stream().map(r -> (Long) r.get(0)).toList();
  }

  public static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  @SafeVarargs
  public static List<Long> concat(List<Long>... lists) {
    List<Long> out = new ArrayList<>();
    for (List<Long> l : lists) {
      out.addAll(l);
    }
    return out;
  }

  public static TableDefinitionOptions replace() {
    return FlightTestClient.mode(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL,
        TableExistsOption.TABLE_EXISTS_OPTION_REPLACE);
  }
}
