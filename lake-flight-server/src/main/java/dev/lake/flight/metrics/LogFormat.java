package dev.lake.flight.metrics;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code log.format} to the server's logging. The server's {@code logback.xml} attaches the appender named by
 * the variable {@value #VARIABLE} ({@code text} or {@code json}; an environment variable or {@code -D} system
 * property), so that format holds from the very first line. A format that came from the YAML file is applied here,
 * at start-up, by replacing the root logger's console appender with one of the other format (same target, standard
 * error). A {@code -D} system property wins over the file; a user's own {@code -Dlogback.configurationFile} is left
 * alone.
 */
public final class LogFormat {
  public static final String VARIABLE = "LAKE_LOG_FORMAT";
  /** The text pattern; keep it equal to the {@code text} appender's in logback.xml. */
  static final String TEXT_PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{24} [%X{queryId}] - %msg%n";

  private LogFormat() {}

  /** Switches the root logger to {@code settings.format()} when another format is in force. */
  public static void apply(LogSettings settings) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context) || System.getProperty("logback.configurationFile") != null
        || System.getProperty(VARIABLE) != null) {
      return;
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    String wanted = settings.format();
    String other = wanted.equals(LogSettings.JSON) ? LogSettings.TEXT : LogSettings.JSON;
    if (root.getAppender(wanted) != null || root.getAppender(other) == null) {
      return; // already in force, or not the server's configuration
    }
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName(wanted);
    appender.setTarget("System.err");
    appender.setEncoder(encoder(context, wanted));
    appender.start();
    ch.qos.logback.core.Appender<ILoggingEvent> replaced = root.getAppender(other);
    root.addAppender(appender);
    root.detachAppender(replaced);
    replaced.stop();
    context.putProperty("lake.log.format", wanted);
  }

  private static Encoder<ILoggingEvent> encoder(LoggerContext context, String format) {
    if (format.equals(LogSettings.JSON)) {
      JsonEncoder json = new JsonEncoder();
      json.setContext(context);
      json.setWithFormattedMessage(true);
      json.start();
      return json;
    }
    PatternLayoutEncoder text = new PatternLayoutEncoder();
    text.setContext(context);
    text.setPattern(TEXT_PATTERN);
    text.start();
    return text;
  }
}
