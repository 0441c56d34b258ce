package dev.lake.query.plan.enumerable;

import dev.lake.query.model.InexactResultException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import org.apache.calcite.linq4j.function.Strict;

/**
 * What Calcite's generated code calls for temporal values held in the unit of their precision (a long of micro- or
 * nanoseconds for TIMESTAMP(p) and TIME(p) with p > 3; milliseconds otherwise), where its own runtime would compute
 * in milliseconds ({@link TemporalRewrites} puts the calls in, by this class and the method's name). A null argument
 * gives null (strict).
 *
 * <p>Temporal arguments name their unit as units per second ({@code ups}: 1,000, 1,000,000 or 1,000,000,000);
 * {@code keep} is the granularity the result's precision keeps, in result units (1 unless the precision is below
 * the unit's digits, e.g. 100 for TIMESTAMP(4) held in microseconds). Timestamps are read as UTC (lake's session
 * time zone).
 */
@Strict
public final class TemporalFunctions {
  private static final long SECONDS_PER_DAY = 86_400L;

  private TemporalFunctions() {}

  /** A timestamp or time of day in another unit (truncated to {@code keep} when the unit is coarser). */
  public static long rescale(long value, long fromUps, long toUps, long keep) {
    long scaled;
    if (toUps >= fromUps) {
      scaled = multiply(value, toUps / fromUps);
    } else {
      scaled = Math.floorDiv(value, fromUps / toUps);
    }
    return keep == 1 ? scaled : Math.floorDiv(scaled, keep) * keep;
  }

  /** {@link #rescale} for a result held as int milliseconds (TIME up to precision 3). */
  public static int rescaleToInt(long value, long fromUps, long toUps, long keep) {
    return Math.toIntExact(rescale(value, fromUps, toUps, keep));
  }

  /** The day of a timestamp (days since 1970-01-01). */
  public static int toDate(long value, long ups) {
    return Math.toIntExact(Math.floorDiv(value, SECONDS_PER_DAY * ups));
  }

  /** Midnight of a day as a timestamp. */
  public static long fromDate(int days, long ups) {
    return multiply(days, SECONDS_PER_DAY * ups);
  }

  /** The time of day of a timestamp, in the result's unit. */
  public static long timeOfDay(long value, long fromUps, long toUps, long keep) {
    return rescale(Math.floorMod(value, SECONDS_PER_DAY * fromUps), fromUps, toUps, keep);
  }

  /** {@link #timeOfDay} held as int milliseconds. */
  public static int timeOfDayToInt(long value, long fromUps, long toUps, long keep) {
    return Math.toIntExact(timeOfDay(value, fromUps, toUps, keep));
  }

  /** A timestamp plus a day-time interval (Calcite holds those as milliseconds). */
  public static long plusMillis(long value, long millis, long ups) {
    try {
      return Math.addExact(value, multiply(millis, ups / 1_000));
    } catch (ArithmeticException e) {
      throw outOfRange();
    }
  }

  /** A time of day plus a day-time interval, wrapping around midnight. */
  public static long timePlusMillis(long value, long millis, long ups) {
    long day = SECONDS_PER_DAY * ups;
    long shift = Math.floorMod(multiply(Math.floorMod(millis, SECONDS_PER_DAY * 1_000), ups / 1_000), day);
    return Math.floorMod(value + shift, day);
  }

  /** A timestamp plus a number of months (the day clamped to the month's last, like Calcite and DuckDB). */
  public static long plusMonths(long value, int months, long ups) {
    long seconds = Math.floorDiv(value, ups);
    long fraction = Math.floorMod(value, ups);
    try {
      LocalDateTime at = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC).plusMonths(months);
      return Math.addExact(multiply(at.toEpochSecond(ZoneOffset.UTC), ups), fraction);
    } catch (java.time.DateTimeException | ArithmeticException e) {
      throw outOfRange();
    }
  }

  /** A DATE plus a number of months (the day clamped to the month's last, like Calcite); beyond DATE fails. */
  public static int datePlusMonths(int days, int months) {
    return date(LocalDate.ofEpochDay(days).plusMonths(months).toEpochDay(), days, months + " months");
  }

  /** A DATE plus the whole days of a day-time interval (truncated toward zero, like Calcite); beyond DATE fails. */
  public static int datePlusMillis(int days, long millis) {
    return date((long) days + millis / (SECONDS_PER_DAY * 1_000), days, millis / (SECONDS_PER_DAY * 1_000) + " days");
  }

  /** A year-month interval (months) times a count; beyond an int of months fails. */
  public static int monthsTimes(long months, long count) {
    long product = intervalTimes(months, count, "months");
    if (product != (int) product) {
      throw intervalOverflow(months, count, "months");
    }
    return (int) product;
  }

  /** A day-time interval (milliseconds) times a count; beyond a long of milliseconds fails. */
  public static long millisTimes(long millis, long count) {
    return intervalTimes(millis, count, "milliseconds");
  }

  private static long intervalTimes(long amount, long count, String unit) {
    try {
      return Math.multiplyExact(amount, count);
    } catch (ArithmeticException e) {
      throw intervalOverflow(amount, count, unit);
    }
  }

  private static InexactResultException intervalOverflow(long amount, long count, String unit) {
    return new InexactResultException("INTERVAL overflow: " + count + " * " + amount + " " + unit
        + " is beyond what an interval holds");
  }

  /** Days since 1970-01-01 as a DATE (Arrow date32), or the refusal naming the addition. */
  private static int date(long result, int days, String added) {
    if (result != (int) result) {
      throw new InexactResultException("DATE overflow: " + LocalDate.ofEpochDay(days) + " + " + added
          + " is beyond the range of DATE (" + LocalDate.ofEpochDay(Integer.MIN_VALUE) + " to "
          + LocalDate.ofEpochDay(Integer.MAX_VALUE) + ")");
    }
    return (int) result;
  }

  /** EXTRACT of MILLISECOND, MICROSECOND or NANOSECOND: the seconds of the minute with their fraction. */
  public static long secondsOfMinute(long value, long ups, long targetUps) {
    return rescale(Math.floorMod(value, 60 * ups), ups, targetUps, 1);
  }

  /** A timestamp as text: {@code yyyy-MM-dd HH:mm:ss} and {@code precision} fractional digits. */
  public static String timestampString(long value, long ups, int precision) {
    long seconds = Math.floorDiv(value, ups);
    LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
    StringBuilder text = new StringBuilder();
    int year = day.getYear();
    if (year < 0) {
      text.append('-');
    }
    text.append(pad(Math.abs(year), 4)).append('-').append(pad(day.getMonthValue(), 2)).append('-')
        .append(pad(day.getDayOfMonth(), 2)).append(' ');
    appendTime(text, Math.floorMod(value, SECONDS_PER_DAY * ups), ups, precision);
    return text.toString();
  }

  /** A time of day as text: {@code HH:mm:ss} and {@code precision} fractional digits. */
  public static String timeString(long value, long ups, int precision) {
    StringBuilder text = new StringBuilder();
    appendTime(text, Math.floorMod(value, SECONDS_PER_DAY * ups), ups, precision);
    return text.toString();
  }

  private static void appendTime(StringBuilder text, long ofDay, long ups, int precision) {
    long seconds = ofDay / ups;
    text.append(pad(seconds / 3_600, 2)).append(':').append(pad(seconds / 60 % 60, 2)).append(':')
        .append(pad(seconds % 60, 2));
    if (precision > 0) {
      int unitDigits = Long.toString(ups).length() - 1;
      String fraction = pad(ofDay % ups, unitDigits);
      while (fraction.length() < precision) {
        fraction += "0";
      }
      text.append('.').append(fraction, 0, precision);
    }
  }

  private static String pad(long value, int digits) {
    String text = Long.toString(value);
    StringBuilder padded = new StringBuilder();
    for (int i = text.length(); i < digits; i++) {
      padded.append('0');
    }
    return padded.append(text).toString();
  }

  /** Text {@code yyyy-MM-dd[( |T)HH:mm[:ss[.f...]]]} as a timestamp. */
  public static long parseTimestamp(String text, long ups, long keep) {
    String trimmed = text.trim();
    try {
      int split = Math.max(trimmed.indexOf(' '), trimmed.indexOf('T'));
      LocalDate day = LocalDate.parse(split < 0 ? trimmed : trimmed.substring(0, split));
      long ofDay = split < 0 ? 0 : parseTime(trimmed.substring(split + 1).trim(), ups, keep);
      long value = Math.addExact(multiply(day.toEpochDay(), SECONDS_PER_DAY * ups), ofDay);
      return keep == 1 ? value : Math.floorDiv(value, keep) * keep;
    } catch (java.time.DateTimeException | ArithmeticException | IllegalArgumentException e) {
      throw new InexactResultException("cannot cast '" + echo(text) + "' to TIMESTAMP: write it as"
          + " 'yyyy-MM-dd HH:mm:ss.ffffff'");
    }
  }

  /** Text {@code HH:mm[:ss[.f...]]} as a time of day. */
  public static long parseTime(String text, long ups, long keep) {
    try {
      LocalTime time = LocalTime.parse(text.trim());
      long value = time.toSecondOfDay() * ups + time.getNano() / (1_000_000_000L / ups);
      return keep == 1 ? value : Math.floorDiv(value, keep) * keep;
    } catch (java.time.DateTimeException e) {
      throw new InexactResultException("cannot cast '" + echo(text) + "' to TIME: write it as 'HH:mm:ss.ffffff'");
    }
  }

  private static long multiply(long value, long factor) {
    try {
      return Math.multiplyExact(value, factor);
    } catch (ArithmeticException e) {
      throw outOfRange();
    }
  }

  private static InexactResultException outOfRange() {
    return new InexactResultException("TIMESTAMP overflow: a TIMESTAMP/TIME value is out of the range its unit can hold (nanoseconds:"
        + " years 1677 to 2262; microseconds: about 292,000 years around 1970; milliseconds: about 292 million"
        + " years)");
  }

  private static String echo(String text) {
    return text.length() <= 60 ? text : text.substring(0, 60) + "...";
  }
}
