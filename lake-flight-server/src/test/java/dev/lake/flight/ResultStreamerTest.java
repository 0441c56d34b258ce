package dev.lake.flight;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.flight.limits.LimitSettings;
import dev.lake.flight.limits.QueryControl;
import dev.lake.flight.limits.QueryLimits;
import dev.lake.flight.limits.UserLimits;
import dev.lake.flight.metrics.QueryEvents;
import dev.lake.flight.metrics.LakeMetrics;
import dev.lake.flight.metrics.NodeProbes;
import dev.lake.flight.metrics.SlowQueryLog;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.junit.jupiter.api.Test;

class ResultStreamerTest {

  /**
   * A DoGet's user permit is given back before the call completes (StatementStreams passes its close as the step
   * before completing): a client that read the whole answer and asks again at once must not find its previous query
   * still counted against query.max-concurrent-per-user.
   */
  @Test
  void theStepBeforeCompletingRunsAfterTheLastBatchAndBeforeTheClientSeesTheEnd() throws Exception {
    UserLimits users = new UserLimits(1);
    List<String> events = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
        LakeMetrics metrics = new LakeMetrics("n1", new NodeProbes(() -> 0, () -> 0, () -> null, () -> true,
            () -> 1, () -> null, () -> null, () -> null));
        QueryLimits limits = new QueryLimits(LimitSettings.defaults(), System::nanoTime, Clock.systemUTC(),
            RuntimeException::new);
        ArrowReader reader = new OneRowBatches(allocator, 2, -1)) {
      Recording listener = new Recording(events, () -> "active=" + users.active("alice"));
      QueryControl control = limits.begin("q1", listener);
      UserLimits.Permit permit = users.acquire("alice");
      ResultStreamer.stream(reader, control, new ResultStreamer.Sent(new QueryEvents(metrics,
          new SlowQueryLog(Optional.empty()), System::nanoTime)),
          limits.writeStall(), () -> {
            events.add("before completing");
            permit.close();
          });
      control.close();
    }
    assertThat(events).containsExactly("start active=1", "batch active=1", "batch active=1", "before completing",
        "completed active=0");
  }


  /** Records each call with what {@code state} says at that moment. */
  private static final class Recording implements ServerStreamListener {
    private final List<String> events;
    private final java.util.function.Supplier<String> state;

    Recording(List<String> events, java.util.function.Supplier<String> state) {
      this.events = events;
      this.state = state;
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public void setOnCancelHandler(Runnable handler) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void start(VectorSchemaRoot root, DictionaryProvider dictionaries, IpcOption option) {
      events.add("start " + state.get());
    }

    @Override
    public void putNext() {
      events.add("batch " + state.get());
    }

    @Override
    public void putNext(ArrowBuf metadata) {
      putNext();
    }

    @Override
    public void putMetadata(ArrowBuf metadata) {}

    @Override
    public void error(Throwable e) {
      events.add("error " + e);
    }

    @Override
    public void completed() {
      events.add("completed " + state.get());
    }
  }
}
