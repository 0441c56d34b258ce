package dev.lake.flight.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LikePatternTest {

  @Test
  void percentMatchesAnyRunAndUnderscoreExactlyOneCharacter() {
    assertThat(LikePattern.of("tr%").matches("trips")).isTrue();
    assertThat(LikePattern.of("tr%").matches("tr")).isTrue();
    assertThat(LikePattern.of("%ps").matches("trips")).isTrue();
    assertThat(LikePattern.of("trip_").matches("trips")).isTrue();
    assertThat(LikePattern.of("trip_").matches("trip")).isFalse();
    assertThat(LikePattern.of("trip_").matches("tripss")).isFalse();
  }

  @Test
  void matchingIsCaseInsensitiveAndCoversTheWholeName() {
    assertThat(LikePattern.of("TRIPS").matches("trips")).isTrue();
    assertThat(LikePattern.of("trip").matches("trips")).isFalse();
    assertThat(LikePattern.of("rip").matches("trips")).isFalse();
  }

  @Test
  void backslashMakesWildcardsLiteral() {
    assertThat(LikePattern.of("a\\_b").matches("a_b")).isTrue();
    assertThat(LikePattern.of("a\\_b").matches("axb")).isFalse();
    assertThat(LikePattern.of("100\\%").matches("100%")).isTrue();
    assertThat(LikePattern.of("100\\%").matches("1000")).isFalse();
    assertThat(LikePattern.of("a\\\\b").matches("a\\b")).isTrue();
  }

  @Test
  void regexMetacharactersAreLiteral() {
    assertThat(LikePattern.of("a.b").matches("axb")).isFalse();
    assertThat(LikePattern.of("a.b").matches("a.b")).isTrue();
    assertThat(LikePattern.of("(x)*").matches("(x)*")).isTrue();
  }

  @Test
  void nullMatchesEverythingAndEmptyOnlyTheEmptyName() {
    assertThat(LikePattern.of(null).matches("anything")).isTrue();
    assertThat(LikePattern.of("").matches("")).isTrue();
    assertThat(LikePattern.of("").matches("a")).isFalse();
  }

  @Test
  void hostilePatternsMatchInLinearTime() {
    String name = "a".repeat(128);
    long start = System.nanoTime();
    assertThat(LikePattern.of("%".repeat(100_000) + "x").matches("probe_table_1")).isFalse();
    assertThat(LikePattern.of("%a".repeat(60) + "%b").matches(name)).isFalse();
    assertThat(LikePattern.of("_".repeat(50_000)).matches(name)).isFalse();
    assertThat(LikePattern.of("%a".repeat(60) + "%").matches(name)).isTrue();
    assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
  }
}
