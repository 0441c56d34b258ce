package dev.lake.query.vector;

/**
 * EXTRACT(YEAR or MONTH FROM date) over DATE columns (days since the epoch), with the proleptic Gregorian calendar
 * arithmetic of {@link java.time.LocalDate} done on longs (TPC-H Q7, Q8, Q9 group by order or ship years).
 */
record DatePart(Expr date, boolean year) implements Expr {
  @Override
  public Kind kind() {
    return Kind.LONG;
  }

  @Override
  public int scale() {
    return 0;
  }

  @Override
  public Col eval(Batch batch) {
    Col days = date.eval(batch);
    int n = batch.size();
    Col out = Col.longs(n, 0);
    for (int i = 0; i < n; i++) {
      if (days.isNull(i)) {
        out.setNull(i);
      } else {
        out.longs[i] = part(days.longs[i], year);
      }
    }
    return out;
  }

  /** The year or month (1-12) of a day number (days since 1970-01-01); the civil-from-days algorithm. */
  static long part(long epochDay, boolean year) {
    long z = epochDay + 719_468;
    long era = (z >= 0 ? z : z - 146_096) / 146_097;
    long dayOfEra = z - era * 146_097;
    long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    long shiftedMonth = (5 * dayOfYear + 2) / 153;
    long month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
    return year ? yearOfEra + era * 400 + (month <= 2 ? 1 : 0) : month;
  }
}
