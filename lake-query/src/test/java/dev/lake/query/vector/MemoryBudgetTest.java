package dev.lake.query.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * Operator state charged to a query's allocator leaves headroom for the Arrow batches streaming through: a build side
 * that fits the limit by a few bytes must be refused (and spill) rather than leave the next scan batch to fail.
 */
class MemoryBudgetTest {
  private static final long MB = 1L << 20;

  @Test
  void stateLeavesAQuarterOfTheLimitForStreamingBatches() {
    try (RootAllocator root = new RootAllocator(Long.MAX_VALUE);
        BufferAllocator query = root.newChildAllocator("query", 0, 16 * MB)) {
      assertThat(MemoryBudget.streamReserve(query)).isEqualTo(4 * MB);
      try (MemoryBudget budget = MemoryBudget.spillable(query)) {
        budget.chargeTo(12 * MB);
        assertThat(query.getAllocatedMemory()).as("charged exactly, not rounded up").isEqualTo(12 * MB);
        assertThatThrownBy(() -> budget.chargeTo(12 * MB + 1)).isInstanceOf(StateMemoryException.class)
            .hasMessageContaining("query.memory-limit");
        assertThat(budget.charged()).isEqualTo(12 * MB);
        // what was kept is there for a scan batch
        try (ArrowBuf batch = query.buffer(4 * MB)) {
          assertThat(batch.capacity()).isEqualTo(4 * MB);
        }
      }
      assertThat(query.getAllocatedMemory()).isZero();
    }
  }

  @Test
  void batchesAlreadyHeldCountAgainstTheState() {
    try (RootAllocator root = new RootAllocator(Long.MAX_VALUE);
        BufferAllocator query = root.newChildAllocator("query", 0, 16 * MB);
        ArrowBuf streaming = query.buffer(4 * MB);
        MemoryBudget budget = MemoryBudget.spillable(query)) {
      budget.chargeTo(8 * MB);
      assertThatThrownBy(() -> budget.chargeTo(8 * MB + 1)).isInstanceOf(StateMemoryException.class);
      assertThat(streaming.capacity()).isEqualTo(4 * MB);
    }
  }

  @Test
  void stateThatCannotSpillMayTakeTheWholeLimit() {
    try (RootAllocator root = new RootAllocator(Long.MAX_VALUE);
        BufferAllocator query = root.newChildAllocator("query", 0, 16 * MB);
        ArrowBuf streaming = query.buffer(8 * MB);
        MemoryBudget budget = new MemoryBudget(query)) {
      budget.chargeTo(8 * MB);
      assertThat(query.getAllocatedMemory()).isEqualTo(16 * MB);
      assertThatThrownBy(() -> budget.chargeTo(8 * MB + 1)).isInstanceOf(StateMemoryException.class)
          .hasMessageNotContaining("streaming");
      assertThat(streaming.capacity()).isEqualTo(8 * MB);
    }
  }

  @Test
  void theReserveIsAQuarterOfTheTightestLimitAtMostSixtyFourMegabytes() {
    try (RootAllocator root = new RootAllocator(8 * MB);
        BufferAllocator loose = root.newChildAllocator("query", 0, 1024 * MB);
        RootAllocator big = new RootAllocator(Long.MAX_VALUE);
        BufferAllocator gigabyte = big.newChildAllocator("query", 0, 1024 * MB)) {
      assertThat(MemoryBudget.streamReserve(loose)).as("the node's 8 MB is the tighter limit").isEqualTo(2 * MB);
      assertThat(MemoryBudget.streamReserve(gigabyte)).isEqualTo(MemoryBudget.MAX_STREAM_RESERVE);
      try (MemoryBudget budget = MemoryBudget.spillable(gigabyte)) {
        budget.chargeTo(1024 * MB - MemoryBudget.MAX_STREAM_RESERVE);
        assertThatThrownBy(() -> budget.chargeTo(1024 * MB - MemoryBudget.MAX_STREAM_RESERVE + 1))
            .isInstanceOf(StateMemoryException.class);
      }
    }
  }
}
