package dev.lake.it.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TPC-H comparison accepts a decimal only when it is DuckDB's double correctly rounded at its scale. */
class AnswersTest {
  @Test
  void truncatedDecimalsDoNotMatchTheirReference() {
    // TPC-H SF 1, Q1's avg(l_discount) and Q8's mkt_share as issue 21 saw them: truncated, not rounded.
    assertThat(Answers.correctlyRounded(new BigDecimal("0.049996"), 0.0499965860)).isFalse();
    assertThat(Answers.correctlyRounded(new BigDecimal("0.049997"), 0.0499965860)).isTrue();
    assertThat(Answers.correctlyRounded(new BigDecimal("0.034435"), 0.0344358904)).isFalse();
    assertThat(Answers.correctlyRounded(new BigDecimal("0.034436"), 0.0344358904)).isTrue();
    assertThat(Answers.difference(List.of(List.of(new BigDecimal("0.049996"))), List.of(List.of(0.0499965860)),
        List.of())).isPresent();
  }

  @Test
  void referencesNearARoundingBoundaryOrBeyondADoublesDigitsAcceptEveryCloseRounding() {
    // A tie within the double's error: either rounding; a digit beyond the double's precision: any close one.
    assertThat(Answers.correctlyRounded(new BigDecimal("0.12"), 0.125)).isTrue();
    assertThat(Answers.correctlyRounded(new BigDecimal("0.13"), 0.125)).isTrue();
    assertThat(Answers.correctlyRounded(new BigDecimal("0.11"), 0.125)).isFalse();
    assertThat(Answers.correctlyRounded(new BigDecimal("123456789.1234567890"), 123456789.12345679)).isTrue();
    // Away from a tie exactly one rounding matches, half away from zero for negatives too.
    assertThat(Answers.correctlyRounded(new BigDecimal("-2.4"), -2.44)).isTrue();
    assertThat(Answers.correctlyRounded(new BigDecimal("-2.5"), -2.44)).isFalse();
    assertThat(Answers.correctlyRounded(new BigDecimal("-2.5"), -2.46)).isTrue();
  }
}
