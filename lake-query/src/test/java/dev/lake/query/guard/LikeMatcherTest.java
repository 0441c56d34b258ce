package dev.lake.query.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.calcite.runtime.SqlFunctions;
import org.junit.jupiter.api.Test;

/**
 * lake's LIKE answers what Calcite's regex-based LIKE answers (except that % and _ also match line terminators, as
 * in Lance's LIKE), without its exponential backtracking.
 */
class LikeMatcherTest {
  private final SqlFunctions.LikeFunction calcite = new SqlFunctions.LikeFunction();
  private final LikeFunctions lake = new LikeFunctions();

  @Test
  void matchesLikeCalciteOnRandomPatterns() {
    Random random = new Random(17);
    String alphabet = "ab%_\\";
    for (int i = 0; i < 20_000; i++) {
      String s = word(random, "abc_%", random.nextInt(8));
      String pattern = word(random, alphabet, random.nextInt(7));
      boolean calciteThrows = false;
      boolean expected = false;
      try {
        expected = calcite.like(s, pattern, "\\");
      } catch (RuntimeException e) {
        calciteThrows = true;
      }
      if (calciteThrows) {
        String p = pattern;
        assertThatThrownBy(() -> lake.likeEscape(s, p, "\\")).as(p).isInstanceOf(IllegalArgumentException.class);
        continue;
      }
      assertThat(lake.likeEscape(s, pattern, "\\")).as("'%s' LIKE '%s' ESCAPE '\\'", s, pattern)
          .isEqualTo(expected);
      if (pattern.indexOf('\\') < 0) {
        assertThat(lake.like(s, pattern)).as("'%s' LIKE '%s'", s, pattern).isEqualTo(calcite.like(s, pattern));
      }
    }
    assertThat(lake.like(null, "%")).isNull();
    // % and _ match line terminators too, as in Lance's LIKE and the SQL standard (Calcite's regex does not)
    assertThat(lake.like("a\nb", "a_b")).isTrue();
    assertThat(lake.like("a\n\nb", "a%b")).isTrue();
    assertThat(lake.like("\uD83D\uDE00", "_")).isTrue();
  }

  @Test
  void backtrackingPatternsRunInLinearTime() {
    String s = "a".repeat(200);
    long t0 = System.nanoTime();
    for (int i = 0; i < 1_000; i++) {
      assertThat(lake.like(s, "%a%a%a%a%a%a%a%b")).isFalse();
    }
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).as("1,000 matches").isLessThan(10_000);
    assertThat(lake.like(s + "b", "%a%a%a%a%a%a%a%b")).isTrue();
    // SIMILAR TO is a regex: a pattern that backtracks without end is stopped by the read budget
    assertThatThrownBy(() -> lake.similar("a".repeat(28) + "c", "(%a){12}b"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backtracks too much");
    assertThat(lake.similar("abab", "(ab)*")).isTrue();
    assertThat(lake.similar("aba", "(ab)*")).isFalse();
  }

  private static String word(Random random, String alphabet, int length) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < length; i++) {
      out.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return out.toString();
  }
}
