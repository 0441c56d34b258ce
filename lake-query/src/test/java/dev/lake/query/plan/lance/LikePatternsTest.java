package dev.lake.query.plan.lance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LikePatternsTest {
  @Test
  void sqlPatternsBecomeBackslashEscapedLancePatterns() {
    assertThat(LikePatterns.toBackslashEscaped("a%b_c", null)).isEqualTo("a%b_c");
    assertThat(LikePatterns.toBackslashEscaped("back\\slash", null)).isEqualTo("back\\\\slash");
    assertThat(LikePatterns.toBackslashEscaped("50!%", '!')).isEqualTo("50\\%");
    assertThat(LikePatterns.toBackslashEscaped("a!!b", '!')).isEqualTo("a!b");
    assertThat(LikePatterns.toBackslashEscaped("x\\_y", '\\')).isEqualTo("x\\_y");
  }

  @Test
  void malformedEscapeIsLeftToCalcite() {
    assertThat(LikePatterns.toBackslashEscaped("abc!", '!')).isNull();
    assertThat(LikePatterns.toBackslashEscaped("a!bc", '!')).isNull();
  }
}
