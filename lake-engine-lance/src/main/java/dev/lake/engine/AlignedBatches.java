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
 * Buffers that arrive over Flight are slices of gRPC messages at arbitrary offsets, so every batch handed to Lance
 * passes through here: aligned batches go through untouched; a batch with a misaligned buffer is copied into
 * freshly allocated, aligned buffers.
 */
final class AlignedBatches {
  /** Enough for every Arrow value type (Decimal256 and interval types need at most 16; Arrow recommends 64). */
  static final int ALIGNMENT = 64;

  private AlignedBatches() {}

  static boolean isAligned(VectorSchemaRoot root) {
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      for (ArrowBuf buf : batch.getBuffers()) {
        if (buf.capacity() > 0 && (buf.memoryAddress() & (ALIGNMENT - 1)) != 0) {
          return false;
        }
      }
      return true;
    }
  }

  /** Makes every buffer of {@code root} aligned, copying into {@code allocator} when needed. */
  static void align(VectorSchemaRoot root, BufferAllocator allocator) {
    if (isAligned(root)) {
      return;
    }
    List<ArrowBuf> copies = new ArrayList<>();
    try (ArrowRecordBatch batch = new VectorUnloader(root).getRecordBatch()) {
      for (ArrowBuf buf : batch.getBuffers()) {
        copies.add(alignedCopy(buf, allocator));
      }
      try (ArrowRecordBatch aligned = new ArrowRecordBatch(batch.getLength(), batch.getNodes(), copies)) {
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
