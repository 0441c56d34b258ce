package dev.lake.flight.metadata;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Lists lake's namespace for GetCatalogs, GetDbSchemas, GetTables and GetTableTypes: catalog
 * {@code lake}, schema {@code main}, its tables, table type {@code TABLE}. Catalog names are
 * compared and patterns matched case-insensitively.
 */
final class CatalogListing {

  /** A GetTables row; {@code schema} is null unless the command asked for it. */
  record TableRow(String name, Schema schema) {}

  private CatalogListing() {}

  /** Whether the optional catalog filter selects catalog {@code lake}. */
  static boolean catalogMatches(boolean hasCatalog, String catalog) {
    return !hasCatalog || FlightSqlMetadata.CATALOG.equalsIgnoreCase(catalog);
  }

  /** The schemas GetDbSchemas returns: {@code main}, or nothing when the filters exclude it. */
  static List<String> schemas(CommandGetDbSchemas command) {
    boolean selected =
        catalogMatches(command.hasCatalog(), command.getCatalog())
            && schemaMatches(command.hasDbSchemaFilterPattern(), command.getDbSchemaFilterPattern());
    return selected ? List.of(FlightSqlMetadata.SCHEMA) : List.of();
  }

  /** The tables GetTables returns, in name order, with annotated schemas if asked for. */
  static List<TableRow> tables(CommandGetTables command, List<TableInfo> tables) {
    boolean namespace =
        catalogMatches(command.hasCatalog(), command.getCatalog())
            && schemaMatches(command.hasDbSchemaFilterPattern(), command.getDbSchemaFilterPattern())
            && typeMatches(command.getTableTypesList());
    if (!namespace) {
      return List.of();
    }
    LikePattern names =
        LikePattern.of(
            command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : null);
    return tables.stream()
        .filter(t -> names.matches(t.name()))
        .sorted(Comparator.comparing(TableInfo::name))
        .map(
            t ->
                new TableRow(
                    t.name(),
                    command.getIncludeSchema()
                        ? ColumnMetadata.withColumnMetadata(t.name(), t.schema())
                        : null))
        .toList();
  }

  /** Writes one-string rows (GetCatalogs, GetTableTypes) into {@code column}. */
  static void fillStrings(VectorSchemaRoot root, String column, List<String> rows) {
    VarCharVector vector = (VarCharVector) root.getVector(column);
    for (int i = 0; i < rows.size(); i++) {
      vector.setSafe(i, utf8(rows.get(i)));
    }
    root.setRowCount(rows.size());
  }

  /** Writes GetDbSchemas rows. */
  static void fillSchemas(VectorSchemaRoot root, List<String> schemas) {
    VarCharVector catalogs = (VarCharVector) root.getVector("catalog_name");
    VarCharVector names = (VarCharVector) root.getVector("db_schema_name");
    for (int i = 0; i < schemas.size(); i++) {
      catalogs.setSafe(i, utf8(FlightSqlMetadata.CATALOG));
      names.setSafe(i, utf8(schemas.get(i)));
    }
    root.setRowCount(schemas.size());
  }

  /** Writes GetTables rows; the root has a {@code table_schema} column iff schemas were asked for. */
  static void fillTables(VectorSchemaRoot root, List<TableRow> tables) {
    VarCharVector catalogs = (VarCharVector) root.getVector("catalog_name");
    VarCharVector schemas = (VarCharVector) root.getVector("db_schema_name");
    VarCharVector names = (VarCharVector) root.getVector("table_name");
    VarCharVector types = (VarCharVector) root.getVector("table_type");
    VarBinaryVector tableSchemas = (VarBinaryVector) root.getVector("table_schema");
    for (int i = 0; i < tables.size(); i++) {
      TableRow table = tables.get(i);
      catalogs.setSafe(i, utf8(FlightSqlMetadata.CATALOG));
      schemas.setSafe(i, utf8(FlightSqlMetadata.SCHEMA));
      names.setSafe(i, utf8(table.name()));
      types.setSafe(i, utf8(FlightSqlMetadata.TABLE_TYPE));
      if (tableSchemas != null) {
        tableSchemas.setSafe(i, serialize(table.schema()));
      }
    }
    root.setRowCount(tables.size());
  }

  /**
   * A schema as Flight SQL's {@code table_schema} carries it: an encapsulated IPC schema message,
   * which {@code MessageSerializer.deserializeSchema} reads back.
   */
  static byte[] serialize(Schema schema) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize a schema in memory", e);
    }
    return out.toByteArray();
  }

  private static boolean schemaMatches(boolean hasPattern, String pattern) {
    return LikePattern.of(hasPattern ? pattern : null).matches(FlightSqlMetadata.SCHEMA);
  }

  private static boolean typeMatches(List<String> types) {
    return types.isEmpty()
        || types.stream().anyMatch(FlightSqlMetadata.TABLE_TYPE::equalsIgnoreCase);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
