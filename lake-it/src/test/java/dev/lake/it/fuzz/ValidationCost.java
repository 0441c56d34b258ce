package dev.lake.it.fuzz;

import dev.lake.flight.streams.BatchValidation;
import dev.lake.it.support.FlightTestClient;
import dev.lake.it.support.LakeTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A short measurement (not a test): what validating incoming batches costs on the ingest hot path. Ingests
 * {@code rows} rows (BIGINT + a 12-character VARCHAR, 65,536-row batches) into an in-process node and times it,
 * then times {@link BatchValidation#check} alone over the same batches. Run:
 * {@code java -cp ... dev.lake.it.fuzz.ValidationCost 5000000}.
 */
public final class ValidationCost {
  private static final Schema SCHEMA = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));
  private static final int BATCH = 65_536;

  private ValidationCost() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000;
    Path dir = Files.createTempDirectory("lake-validation-cost");
    try (LakeTestServer server = LakeTestServer.start(dir); FlightTestClient client = server.client();
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, client.allocator())) {
      fill(root, 0);
      // validation alone
      for (int warm = 0; warm < 20; warm++) {
        BatchValidation.check(root, warm);
      }
      long start = System.nanoTime();
      for (long done = 0; done < rows; done += BATCH) {
        BatchValidation.check(root, done / BATCH);
      }
      double validateSeconds = (System.nanoTime() - start) / 1e9;
      // the ingest, validation included
      for (int run = 0; run < 2; run++) {
        long began = System.nanoTime();
        client.ingest("cost" + run, new Batches(client, rows), FlightTestClient.create(), java.util.Map.of());
        double ingestSeconds = (System.nanoTime() - began) / 1e9;
        System.out.printf("run %d: ingest of %,d rows: %.2f s = %,.0f rows/s (validation included)%n", run, rows,
            ingestSeconds, rows / ingestSeconds);
        System.out.printf("       without validation (its time taken out): %,.0f rows/s%n",
            rows / Math.max(1e-9, ingestSeconds - validateSeconds));
      }
      System.out.printf("validation alone: %.3f s for %,d rows = %,.0f rows/s%n", validateSeconds, rows,
          rows / validateSeconds);
    }
  }

  private static void fill(VectorSchemaRoot root, long from) {
    BigIntVector id = (BigIntVector) root.getVector(0);
    VarCharVector name = (VarCharVector) root.getVector(1);
    for (int i = 0; i < BATCH; i++) {
      id.setSafe(i, from + i);
      name.setSafe(i, String.format("name-%07d", (from + i) % 10_000_000).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(BATCH);
  }

  /** {@code rows} rows in 65,536-row batches. */
  private static final class Batches extends ArrowReader {
    private final long rows;
    private long sent;

    Batches(FlightTestClient client, long rows) {
      super(client.allocator());
      this.rows = rows;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
      if (sent >= rows) {
        return false;
      }
      fill(getVectorSchemaRoot(), sent);
      sent += BATCH;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return SCHEMA;
    }
  }
}
