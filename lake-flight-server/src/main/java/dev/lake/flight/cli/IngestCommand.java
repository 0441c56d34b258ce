package dev.lake.flight.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lake ingest FILE... --table T}: reads Parquet, CSV and Arrow IPC files with Arrow's dataset reader and
 * streams their batches to the server in one Flight SQL bulk ingest (one atomic table version), with a progress
 * bar on a terminal and plain lines otherwise.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Load Parquet, CSV and Arrow IPC files into a table over Flight SQL bulk ingest.",
        "All files go into one new table version (all or nothing) and must share one schema."})
public final class IngestCommand implements Callable<Integer> {
  /** What to do with an existing (or missing) table. */
  enum Mode {
    create(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_FAIL),
    append(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL, TableExistsOption.TABLE_EXISTS_OPTION_APPEND),
    replace(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_REPLACE);

    private final TableDefinitionOptions options;

    Mode(TableNotExistOption ifMissing, TableExistsOption ifExists) {
      this.options = TableDefinitionOptions.newBuilder().setIfNotExist(ifMissing).setIfExists(ifExists).build();
    }
  }

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "input files (.parquet, .csv, .arrow/.ipc/.feather)")
  List<Path> files;

  @Option(names = {"-t", "--table"}, required = true, description = "the table to load")
  String table;

  @Option(names = {"-m", "--mode"}, defaultValue = "create", description = "create (the table must not exist), "
      + "append (it must exist) or replace (its rows are replaced; created if missing); default: ${DEFAULT-VALUE}")
  Mode mode;

  @Option(names = "--format", description = "parquet, csv or arrow for every file (default: from the file name)")
  String format;

  @Option(names = "--batch-rows", defaultValue = "65536", description = "rows per batch sent (default: ${DEFAULT-VALUE})")
  int batchRows;

  @Option(names = "--progress-interval", defaultValue = "2s", converter = DurationConverter.class,
      description = "without a terminal, print a progress line at most this often (default: ${DEFAULT-VALUE})")
  Duration progressInterval;

  @Option(names = "--no-count", description = "skip counting the rows first (no percentage and no ETA)")
  boolean noCount;

  @Mixin
  ConnectionOptions connection;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (batchRows <= 0) {
      throw new UsageException("--batch-rows must be positive");
    }
    List<SourceFile> sources = new ArrayList<>();
    for (Path f : files) {
      sources.add(SourceFile.of(f, format));
    }
    PrintWriter out = spec.commandLine().getOut();
    ConnectionOptions.Endpoint endpoint = connection.resolve(System.getenv());
    try (LakeClient client = LakeClient.connect(endpoint)) {
      long total = noCount ? -1 : total(client, sources);
      Progress progress = new Progress(out, System.console() != null, progressInterval, System::nanoTime, total);
      long acknowledged;
      try (FileBatches batches = new FileBatches(client.allocator(), sources, batchRows, progress)) {
        acknowledged = client.ingest(table, batches, mode.options);
      } catch (RuntimeException e) {
        progress.failed();
        throw e;
      }
      progress.done(table, acknowledged);
      if (acknowledged != progress.rows()) {
        spec.commandLine().getErr().printf("lake ingest: warning: sent %,d rows but the server acknowledged %,d%n",
            progress.rows(), acknowledged);
        return CliErrors.FAILED;
      }
      return CliErrors.OK;
    }
  }

  private static long total(LakeClient client, List<SourceFile> sources) {
    long total = 0;
    for (SourceFile f : sources) {
      try {
        total += FileBatches.countRows(client.allocator(), f);
      } catch (Exception e) {
        return -1; // the real read reports what is wrong with the file
      }
    }
    return total;
  }
}
