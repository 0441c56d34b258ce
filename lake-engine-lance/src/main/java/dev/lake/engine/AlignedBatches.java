package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Lance's native code (arrow-rs) imports batches through the C data interface and <b>aborts the JVM</b> when a
 * buffer is not aligned for its value type ("Memory pointer from external source (e.g, FFI) is not aligned").
 * Buffers that arrive over Flight are slices of gRPC messages (measured: 8-byte aligned, at any multiple of 8), so
 * every batch handed to Lance passes through here: aligned buffers go through untouched; only a misaligned buffer is
 * copied into a freshly allocated, aligned one.
 */
final class AlignedBatches {
  /**
   * The widest alignment arrow-rs asks of an imported buffer: 16, for 128-bit values (Decimal128/256, month-day-nano
   * intervals); 64 would copy nearly every Flight batch for nothing.
   */
  static final int ALIGNMENT = 16;

  private AlignedBatches() {}

  static boolean isAligned(VectorSchemaRoot root) {
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      for (ArrowBuf buf : batch.getBuffers()) {
        if (!isAligned(buf)) {
          return false;
        }
      }
      return true;
    }
  }

  private static boolean isAligned(ArrowBuf buf) {
    return buf.capacity() == 0 || (buf.memoryAddress() & (ALIGNMENT - 1)) == 0;
  }

  /** Makes every buffer of {@code root} aligned, copying into {@code allocator} when needed. */
  static void align(VectorSchemaRoot root, BufferAllocator allocator) {
    if (isAligned(root)) {
      return;
    }
    List<ArrowBuf> copies = new ArrayList<>();
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      List<ArrowBuf> buffers = new ArrayList<>();
      for (ArrowBuf buf : batch.getBuffers()) {
        if (isAligned(buf)) {
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
