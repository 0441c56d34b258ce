package dev.lake.flight.cli;

import java.io.PrintWriter;
import org.apache.arrow.flight.ErrorFlightMetadata;
import org.apache.arrow.flight.FlightRuntimeException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a failed client command into one line on stderr and an exit code, never a stack trace: {@link #OK} 0,
 * {@link #FAILED} 1 (the server refused or failed, with its message and {@code lake-code}; or an input file could
 * not be read), {@link #USAGE} 2 (the command line is wrong; picocli's own parse errors use 2 as well).
 */
public final class CliErrors implements IExecutionExceptionHandler {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;

  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    err.println("lake " + cmd.getCommandName() + ": " + describe(e));
    err.flush();
    return e instanceof UsageException ? USAGE : FAILED;
  }

  /** One line saying what failed: the server's message and code, or the local cause. */
  public static String describe(Throwable e) {
    FlightRuntimeException flight = find(e, FlightRuntimeException.class);
    if (flight != null) {
      if (unreachable(flight)) {
        Throwable tls = causes(flight).filter(t -> t instanceof javax.net.ssl.SSLException).findFirst().orElse(null);
        if (tls != null) {
          return "the TLS handshake with the server failed (" + oneLine(tls.getMessage()) + "); check --tls, "
              + "--tls-root-certs and the host name in --url/--host (it must match the server's certificate)";
        }
        String why = causes(flight).reduce((first, second) -> second).map(Throwable::getMessage)
            .orElse(flight.status().description());
        return "cannot reach the server (" + oneLine(why) + "); is one listening at the address given by --url or "
            + "--host/--port, with or without TLS as given?";
      }
      return "the server answered " + code(flight) + ": " + oneLine(flight.status().description());
    }
    if (e instanceof UsageException) {
      return e.getMessage();
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    if (root != e && root.getMessage() != null && !message.contains(root.getMessage())) {
      message += ": " + root.getMessage();
    }
    return message;
  }

  /** lake's exact code from the {@code lake-code} trailer, else the Flight status code. */
  static String code(FlightRuntimeException e) {
    ErrorFlightMetadata md = e.status().metadata();
    if (md != null && md.keys().contains("lake-code")) {
      return md.get("lake-code");
    }
    return e.status().code().name();
  }

  /** The exception, its causes and the status's cause, in order. */
  private static java.util.stream.Stream<Throwable> causes(FlightRuntimeException e) {
    java.util.List<Throwable> all = new java.util.ArrayList<>();
    for (Throwable start : new Throwable[] {e, e.status().cause()}) {
      for (Throwable t = start; t != null && !all.contains(t); t = t.getCause()) {
        all.add(t);
      }
    }
    return all.stream().filter(t -> t.getMessage() != null);
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("").strip();
  }

  /** A transport failure (no lake status came back): nothing listens there, or the connection broke. */
  private static boolean unreachable(FlightRuntimeException e) {
    ErrorFlightMetadata md = e.status().metadata();
    boolean fromLake = md != null && md.keys().contains("lake-code");
    return !fromLake && e.status().code() == org.apache.arrow.flight.FlightStatusCode.UNAVAILABLE;
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
