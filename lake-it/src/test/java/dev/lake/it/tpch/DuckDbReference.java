package dev.lake.it.tpch;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * DuckDB in this process (in memory) as the reference engine: tables are loaded from the very Arrow batches lake
 * ingests (through Arrow's C stream interface, so both engines hold exactly the same values and types), and queries
 * answer through DuckDB's JDBC driver.
 */
public final class DuckDbReference implements AutoCloseable {
  private final Connection connection;

  private int sources;

  private DuckDbReference(Connection connection) {
    this.connection = connection;
  }

  /** An empty in-memory database using {@code threads} threads and DuckDB's default memory limit. */
  public static DuckDbReference open(int threads) throws SQLException {
    return open(threads, null, null);
  }

  /**
   * An empty in-memory database using {@code threads} threads; with a {@code memoryLimit} (DuckDB's {@code
   * memory_limit}, e.g. {@code 5GB}) it keeps to it and pages what does not fit to {@code tempDirectory}. Each
   * database has its own limit (DuckDB's default is 80% of the machine's memory, per database).
   */
  public static DuckDbReference open(int threads, String memoryLimit, java.nio.file.Path tempDirectory)
      throws SQLException {
    Connection connection = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET threads TO " + threads);
      if (memoryLimit != null) {
        statement.execute("SET memory_limit = '" + memoryLimit + "'");
        statement.execute("SET temp_directory = '" + tempDirectory + "'");
      }
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return new DuckDbReference(connection);
  }

  /**
   * A fresh in-memory database using {@code threads} threads whose tables are views over the Parquet files
   * {@link #exportParquet} wrote to {@code directory} (DuckDB reads the files on every query).
   */
  public static DuckDbReference overParquet(int threads, String memoryLimit, java.nio.file.Path tempDirectory,
      java.nio.file.Path directory, List<String> tables) throws SQLException {
    DuckDbReference duckDb = open(threads, memoryLimit, tempDirectory);
    try (Statement statement = duckDb.connection.createStatement()) {
      for (String table : tables) {
        statement.execute("CREATE VIEW " + table + " AS SELECT * FROM read_parquet('"
            + parquetFile(directory, table) + "')");
      }
    } catch (SQLException e) {
      duckDb.close();
      throw e;
    }
    return duckDb;
  }

  /** Writes table {@code name} to {@code directory}/{@code name}.parquet with DuckDB's COPY. */
  public void exportParquet(java.nio.file.Path directory, String name) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("COPY " + name + " TO '" + parquetFile(directory, name) + "' (FORMAT PARQUET)");
    }
  }

  private static String parquetFile(java.nio.file.Path directory, String table) {
    return directory.resolve(table + ".parquet").toAbsolutePath().toString().replace("'", "''");
  }

  /** Creates table {@code name} with every batch of {@code data} (consumed and closed). */
  public void load(String name, ArrowReader data, BufferAllocator allocator) throws SQLException {
    fromArrow(name, data, allocator, source -> "CREATE TABLE " + name + " AS SELECT * FROM " + source);
  }

  /** Appends {@code data}'s rows to table {@code name} (as lake's append ingest does). */
  public void append(String name, ArrowReader data, BufferAllocator allocator) throws SQLException {
    fromArrow(name, data, allocator, source -> "INSERT INTO " + name + " SELECT * FROM " + source);
  }

  /** Registers {@code data} as an Arrow stream and runs the statement {@code sql} makes of the stream's name. */
  private void fromArrow(String name, ArrowReader data, BufferAllocator allocator,
      java.util.function.UnaryOperator<String> sql) throws SQLException {
    try (ArrowReader reader = data; ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
        Statement statement = connection.createStatement()) {
      Data.exportArrayStream(allocator, reader, stream);
      String source = name + "_arrow_source_" + ++sources; // a registered stream's name is never used twice
      connection.unwrap(DuckDBConnection.class).registerArrowStream(source, stream);
      statement.execute(sql.apply(source));
    } catch (java.io.IOException e) {
      throw new SQLException("closing the Arrow source of table " + name + " failed", e);
    }
  }

  /** Every row of the answer, as JDBC {@code getObject} values. */
  public List<List<Object>> rows(String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      return JdbcRows.read(result);
    }
  }

  /** Runs {@code sql} and reads every row without keeping them; returns the row count. */
  public long drain(String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      return JdbcRows.drain(result);
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }

  /** Reading JDBC result sets, shared with the lake side. */
  public static final class JdbcRows {
    private JdbcRows() {}

    public static List<List<Object>> read(ResultSet result) throws SQLException {
      int columns = result.getMetaData().getColumnCount();
      List<List<Object>> rows = new ArrayList<>();
      while (result.next()) {
        List<Object> row = new ArrayList<>(columns);
        for (int c = 1; c <= columns; c++) {
          row.add(result.getObject(c));
        }
        rows.add(row);
      }
      return rows;
    }

    public static long drain(ResultSet result) throws SQLException {
      int columns = result.getMetaData().getColumnCount();
      long rows = 0;
      while (result.next()) {
        for (int c = 1; c <= columns; c++) {
          result.getObject(c);
        }
        rows++;
      }
      return rows;
    }
  }
}
