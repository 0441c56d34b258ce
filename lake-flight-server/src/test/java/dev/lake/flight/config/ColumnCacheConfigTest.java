package dev.lake.flight.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code query.column-cache}: a size, a share of the heap, or 0 (off); anything else is refused with the key. */
class ColumnCacheConfigTest {
  private static long cache(String value) {
    return ConfigLoader.load(Optional.empty(), Map.of(), Map.of("query.column-cache", value)).columnCacheBytes();
  }

  @Test
  void columnCacheTakesASizeAShareOfTheHeapOrZero() {
    long heap = Runtime.getRuntime().maxMemory();
    assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of()).columnCacheBytes())
        .as("default: a quarter of the heap").isEqualTo(heap / 4);
    assertThat(cache("512MB")).isEqualTo(512L << 20);
    assertThat(cache("10%")).isEqualTo((long) (heap * 0.10));
    assertThat(cache("0")).isZero();
    for (String bad : new String[] {"lots", "95%", "-1%", "x%"}) {
      assertThatThrownBy(() -> cache(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("query.column-cache");
    }
    assertThatThrownBy(() -> cache("-5")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("query.column-cache");
  }
}
