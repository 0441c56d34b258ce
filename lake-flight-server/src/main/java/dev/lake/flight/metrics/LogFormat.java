package dev.lake.flight.metrics;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import java.net.URL;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code log.format} to the server's logback configuration ({@code logback.xml} in the server jar picks its
 * appender from the variable {@value #VARIABLE}: {@code text} or {@code json}). The environment variable or system
 * property of that name works too, from the very first line (a system property wins over the YAML file); this class
 * applies a format that came from the YAML file. A user's own {@code -Dlogback.configurationFile} is left alone.
 */
public final class LogFormat {
  public static final String VARIABLE = "LAKE_LOG_FORMAT";

  private LogFormat() {}

  /** Reconfigures logback for {@code settings.format()} when it differs from the format in force. */
  public static void apply(LogSettings settings) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context) || System.getProperty("logback.configurationFile") != null
        || System.getProperty(VARIABLE) != null) {
      return;
    }
    String current = context.getProperty("lake.log.format");
    if (settings.format().equals(current)) {
      return;
    }
    URL config = LogFormat.class.getResource("/logback.xml");
    if (config == null) {
      return;
    }
    context.reset();
    context.putProperty(VARIABLE, settings.format());
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(config);
    } catch (JoranException e) {
      throw new IllegalStateException("cannot apply log.format=" + settings.format() + ": " + e.getMessage(), e);
    }
  }
}
