package dev.lake.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HistoryRetentionTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static VersionRecord v(long version, long secondsAfterT) {
    return new VersionRecord("t", "g", version, T.plusSeconds(secondsAfterT));
  }

  @Test
  void aVersionExpiresOnlyOnceItsSuccessorWasRegisteredBeforeTheWindowStart() {
    List<VersionRecord> history = List.of(v(3, 300), v(1, 0), v(2, 100), v(4, 400));
    assertThat(HistoryRetention.expired(history, T.plusSeconds(300), Optional.empty()))
        .containsExactly(v(1, 0));
    assertThat(HistoryRetention.expired(history, T.plusSeconds(301), Optional.empty()))
        .containsExactly(v(1, 0), v(2, 100));
    assertThat(HistoryRetention.oldestRetainedVersion(history, T.plusSeconds(301), Optional.empty()))
        .contains(3L);
  }

  @Test
  void anIdleTablesRegisteredVersionNeverExpires() {
    List<VersionRecord> history = List.of(v(1, 0), v(2, 10));
    assertThat(HistoryRetention.expired(history, T.plusSeconds(1_000_000), Optional.empty()))
        .containsExactly(v(1, 0));
    assertThat(HistoryRetention.oldestRetainedVersion(history, T.plusSeconds(1_000_000), Optional.empty()))
        .contains(2L);
  }

  @Test
  void aDroppedIncarnationExpiresWhollyOnceItsDropIsOlderThanTheWindow() {
    List<VersionRecord> history = List.of(v(1, 0), v(2, 10));
    assertThat(HistoryRetention.expired(history, T.plusSeconds(50), Optional.of(T.plusSeconds(60))))
        .containsExactly(v(1, 0));
    assertThat(HistoryRetention.expired(history, T.plusSeconds(61), Optional.of(T.plusSeconds(60))))
        .containsExactly(v(1, 0), v(2, 10));
    assertThat(HistoryRetention.oldestRetainedVersion(history, T.plusSeconds(61), Optional.of(T.plusSeconds(60))))
        .isEmpty();
  }
}
