package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Lance's native code (arrow-rs) imports batches through the C data interface and <b>aborts the JVM</b> when a
 * buffer is not aligned for its value type ("Memory pointer from external source (e.g, FFI) is not aligned").
 * Buffers that arrive over Flight are slices of gRPC messages (measured: 8-byte aligned, at any multiple of 8), so
 * every batch handed to Lance passes through here: aligned buffers go through untouched; only a misaligned buffer is
 * copied into a freshly allocated, aligned one. What aligned means depends on the buffer: 16 bytes for the values of
 * 128- and 256-bit types (decimals, month-day-nano intervals, string/binary views), which arrow-rs reads as 128-bit
 * integers; 8 bytes for every other buffer (no Arrow buffer holds wider elements than 8 bytes), so an 8-aligned Flight
 * batch has only its 16-byte values copied (docs/performance.md, "Bulk ingest").
 */
final class AlignedBatches {
  /**
   * The widest alignment arrow-rs asks of an imported buffer: 16, for 128-bit values (Decimal128/256, month-day-nano
   * intervals); 64 would copy nearly every Flight batch for nothing.
   */
  static final int ALIGNMENT = 16;
  /** What every other buffer needs: the widest of their elements (64-bit values and offsets). */
  static final int WORD_ALIGNMENT = 8;

  private AlignedBatches() {}

  static boolean isAligned(VectorSchemaRoot root) {
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      List<ArrowBuf> buffers = batch.getBuffers();
      int[] needed = alignments(root);
      for (int i = 0; i < buffers.size(); i++) {
        if (!isAligned(buffers.get(i), needed[i])) {
          return false;
        }
      }
      return true;
    }
  }

  private static boolean isAligned(ArrowBuf buf, int alignment) {
    return buf.capacity() == 0 || (buf.memoryAddress() & (alignment - 1)) == 0;
  }

  /** The alignment each buffer of {@code root} needs, in the order {@link VectorUnloader} lists them. */
  static int[] alignments(VectorSchemaRoot root) {
    List<Integer> needed = new ArrayList<>();
    for (FieldVector vector : root.getFieldVectors()) {
      add(vector, needed);
    }
    return needed.stream().mapToInt(Integer::intValue).toArray();
  }

  private static void add(FieldVector vector, List<Integer> needed) {
    int buffers = vector.getFieldBuffers().size();
    boolean wideValues = hasWideValues(vector.getField().getType());
    for (int i = 0; i < buffers; i++) {
      // the values are the second buffer of a fixed-width or view layout (after the validity bitmap)
      needed.add(wideValues && i == 1 ? ALIGNMENT : WORD_ALIGNMENT);
    }
    for (FieldVector child : vector.getChildrenFromFields()) {
      add(child, needed);
    }
  }

  /** Types whose values arrow-rs reads as 128-bit (or wider) integers. */
  private static boolean hasWideValues(ArrowType type) {
    return type instanceof ArrowType.Decimal
        || type instanceof ArrowType.Utf8View || type instanceof ArrowType.BinaryView
        || (type instanceof ArrowType.Interval interval && interval.getUnit() == IntervalUnit.MONTH_DAY_NANO);
  }

  /** Makes every buffer of {@code root} aligned, copying into {@code allocator} when needed. */
  static void align(VectorSchemaRoot root, BufferAllocator allocator) {
    if (isAligned(root)) {
      return;
    }
    List<ArrowBuf> copies = new ArrayList<>();
    int[] needed = alignments(root);
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      List<ArrowBuf> buffers = new ArrayList<>();
      for (int i = 0; i < batch.getBuffers().size(); i++) {
        ArrowBuf buf = batch.getBuffers().get(i);
        if (isAligned(buf, needed[i])) {
          buffers.add(buf);
        } else {
          ArrowBuf copy = alignedCopy(buf, allocator);
          copies.add(copy);
          buffers.add(copy);
        }
      }
      try (ArrowRecordBatch aligned = new ArrowRecordBatch(batch.getLength(), batch.getNodes(), buffers)) {
        new VectorLoader(root).load(aligned);
      }
    } finally {
      copies.forEach(ArrowBuf::close);
    }
  }

  private static ArrowBuf alignedCopy(ArrowBuf source, BufferAllocator allocator) {
    long length = source.capacity();
    ArrowBuf raw = allocator.buffer(length + ALIGNMENT);
    long shift = (ALIGNMENT - (raw.memoryAddress() & (ALIGNMENT - 1))) & (ALIGNMENT - 1);
    ArrowBuf target = raw.slice(shift, length);
    target.getReferenceManager().retain();
    raw.close();
    if (length > 0) {
      target.setBytes(0, source, 0, length);
    }
    target.writerIndex(length);
    return target;
  }
}
