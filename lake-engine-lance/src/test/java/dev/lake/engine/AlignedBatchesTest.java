package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Buffers that arrive over Flight are slices of gRPC messages at any offset; Lance's native code aborts the whole
 * JVM on a misaligned buffer. Without {@link AlignedBatches} this test kills its JVM.
 */
class AlignedBatchesTest extends EngineTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("amount", new ArrowType.Decimal(38, 10, 128))));

  @Test
  void misalignedBuffersAreAlignedBeforeLanceReadsThem() {
    writeAndRead(1, false);
  }

  /** What Flight delivers: 8-byte aligned buffers; the 128-bit decimals need 16 and are copied. */
  @Test
  void eightByteAlignedDecimalsAreAlignedBeforeLanceReadsThem() {
    writeAndRead(8, false);
  }

  /** 16-byte aligned buffers are what arrow-rs needs: they go to Lance as they are. */
  @Test
  void sixteenByteAlignedBuffersGoThroughUncopied() {
    writeAndRead(16, true);
  }

  /**
   * An 8-aligned batch (what Flight delivers) has only its 128-bit values copied: the 64-bit integers and every
   * validity bitmap stay where they are, so an ingest copies its decimal columns, not the whole batch.
   */
  @Test
  void onlyTheWideValuesOfAnEightByteAlignedBatchAreCopied() {
    try (VectorSchemaRoot batch = shiftedBatch(50, 8)) {
      BigIntVector ids = (BigIntVector) batch.getVector(0);
      DecimalVector amounts = (DecimalVector) batch.getVector(1);
      long idValues = ids.getDataBuffer().memoryAddress();
      long idValidity = ids.getValidityBuffer().memoryAddress();
      long amountValues = amounts.getDataBuffer().memoryAddress();
      long amountValidity = amounts.getValidityBuffer().memoryAddress();

      AlignedBatches.align(batch, allocator);

      assertThat(ids.getDataBuffer().memoryAddress()).as("64-bit values, 8-aligned").isEqualTo(idValues);
      assertThat(ids.getValidityBuffer().memoryAddress()).isEqualTo(idValidity);
      assertThat(amounts.getValidityBuffer().memoryAddress()).isEqualTo(amountValidity);
      assertThat(amounts.getDataBuffer().memoryAddress()).as("128-bit values are copied").isNotEqualTo(amountValues);
      assertThat(amounts.getDataBuffer().memoryAddress() % AlignedBatches.ALIGNMENT).isZero();
      assertThat(AlignedBatches.isAligned(batch)).isTrue();
      assertThat(amounts.getObject(7)).isEqualTo(new BigDecimal("7.0000000007"));
      assertThat(ids.get(49)).isEqualTo(49L);
    }
  }

  private void writeAndRead(int shift, boolean aligned) {
    String location = newLocation("aligned-" + shift);
    try (VectorSchemaRoot batch = shiftedBatch(50, shift)) {
      assertThat(AlignedBatches.isAligned(batch)).as("buffers %d bytes past a 64-byte boundary", shift)
          .isEqualTo(aligned);
      long version = engine.create(location, engine.stage(location, new OneBatch(batch)));
      try (TableSnapshot snapshot = engine.open(location, version, allocator)) {
        List<List<Object>> rows = Rows.drain(snapshot.scan(List.of(), Optional.empty(), Optional.empty(), 1024));
        assertThat(rows).hasSize(50);
        assertThat(rows).contains(List.of(7L, new BigDecimal("7.0000000007")));
      }
    }
  }

  /** A batch whose every buffer starts {@code shift} bytes past a 64-byte aligned address. */
  private VectorSchemaRoot shiftedBatch(int rows, int shift) {
    VectorSchemaRoot target = VectorSchemaRoot.create(SCHEMA, allocator);
    List<ArrowBuf> shifted = new ArrayList<>();
    try (VectorSchemaRoot source = VectorSchemaRoot.create(SCHEMA, allocator)) {
      source.allocateNew();
      for (int i = 0; i < rows; i++) {
        ((BigIntVector) source.getVector(0)).setSafe(i, i);
        ((DecimalVector) source.getVector(1)).setSafe(i, new BigDecimal(i).add(new BigDecimal(i).movePointLeft(10)).setScale(10));
      }
      source.setRowCount(rows);
      try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
        for (ArrowBuf buf : batch.getBuffers()) {
          ArrowBuf raw = allocator.buffer(buf.capacity() + 64);
          long offset = ((64 - (raw.memoryAddress() & 63)) & 63) + shift;
          ArrowBuf slice = raw.slice(offset, buf.capacity());
          slice.getReferenceManager().retain();
          raw.close();
          slice.setBytes(0, buf, 0, buf.capacity());
          shifted.add(slice);
        }
        try (ArrowRecordBatch moved = new ArrowRecordBatch(batch.getLength(), batch.getNodes(), shifted,
            org.apache.arrow.vector.compression.NoCompressionCodec.DEFAULT_BODY_COMPRESSION,
            false)) {
          new VectorLoader(target).load(moved);
        }
      }
    } finally {
      shifted.forEach(ArrowBuf::close);
    }
    return target;
  }

  /** Hands out one prepared batch. */
  private final class OneBatch extends ArrowReader {
    private final VectorSchemaRoot batch;
    private boolean done;

    OneBatch(VectorSchemaRoot batch) {
      super(AlignedBatchesTest.this.allocator);
      this.batch = batch;
    }

    @Override
    public boolean loadNextBatch() {
      if (done) {
        return false;
      }
      done = true;
      try (ArrowRecordBatch unloaded = new VectorUnloader(batch).getRecordBatch()) {
        VectorSchemaRoot root;
        try {
          root = getVectorSchemaRoot();
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
        // keep the misaligned addresses: load the very same buffers
        new VectorLoader(root).load(unloaded);
      }
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
