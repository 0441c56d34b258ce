package dev.lake.it.support;

import org.apache.arrow.flight.FlightRuntimeException;

/**
 * The status code lake answered with. Arrow Java's client enum folds ABORTED and FAILED_PRECONDITION into other
 * codes, so lake also sends its exact code in the {@code lake-code} trailer; this reads that first.
 */
public final class Status {
  private Status() {}

  public static String code(Throwable t) {
    Throwable e = t;
    while (e != null && !(e instanceof FlightRuntimeException)) {
      e = e.getCause();
    }
    if (e == null) {
      throw new AssertionError("not a Flight error: " + t, t);
    }
    FlightRuntimeException f = (FlightRuntimeException) e;
    var md = f.status().metadata();
    String exact = md != null && md.keys().contains("lake-code") ? md.get("lake-code") : null;
    return exact != null ? exact : f.status().code().name();
  }
}
