package dev.lake.flight.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AdmissionTest {
  private static final long FOREVER = Long.MAX_VALUE / 2;

  @Test
  void runsNQueuesQAndRefusesTheNextAtOnce() throws Exception {
    Admission admission = new Admission(2, 1, System::nanoTime);
    Admission.Slot a = admission.acquire(FOREVER);
    Admission.Slot b = admission.acquire(FOREVER);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      CountDownLatch admitted = new CountDownLatch(1);
      CompletableFuture<Void> queued = CompletableFuture.runAsync(() -> {
        try (Admission.Slot c = admission.acquire(FOREVER)) {
          admitted.countDown();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }, pool);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (admission.queued() != 1 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(admission.queued()).isEqualTo(1);
      assertThatThrownBy(() -> admission.acquire(FOREVER)).isInstanceOf(QueryLimitException.class)
          .hasMessageContaining("query.max-concurrent = 2").hasMessageContaining("query.max-queued = 1");
      a.close();
      assertThat(admitted.await(30, TimeUnit.SECONDS)).as("the queued query got the freed slot").isTrue();
      queued.get(30, TimeUnit.SECONDS);
      b.close();
      assertThat(admission.running()).isZero();
      assertThat(admission.queued()).isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWaiterGivesUpAtItsDeadline() throws Exception {
    AtomicLong now = new AtomicLong();
    Admission admission = new Admission(1, 5, now::get);
    try (Admission.Slot held = admission.acquire(FOREVER)) {
      now.set(1_000);
      assertThatThrownBy(() -> admission.acquire(500)).isInstanceOf(QueryTimeoutException.class)
          .hasMessageContaining("query.timeout");
      assertThat(admission.queued()).isZero();
    }
  }

  @Test
  void aSlotIsGivenBackOnce() throws Exception {
    Admission admission = new Admission(1, 0, System::nanoTime);
    Admission.Slot slot = admission.acquire(FOREVER);
    slot.close();
    slot.close();
    assertThat(admission.running()).isZero();
    try (Admission.Slot again = admission.acquire(FOREVER)) {
      assertThat(admission.running()).isEqualTo(1);
    }
  }
}
