package dev.lake.flight.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The server's logging: the query id on every line, text or JSON as log.format says. */
class LogFormatTest {
  @Test
  void logFormatSwitchesBetweenTextAndJsonWithTheQueryIdOnEveryLine() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    assertThat(root.getAppender("text")).as("the server's logback.xml is in force").isNotNull();
    try {
      LogFormat.apply(new LogSettings(LogSettings.JSON, Optional.empty()));
      assertThat(root.getAppender("text")).isNull();
      JsonNode line = new ObjectMapper().readTree(encode(root, "json"));
      assertThat(line.path("level").asText()).isEqualTo("INFO");
      assertThat(line.path("formattedMessage").asText()).isEqualTo("planned table=t");
      assertThat(line.path("mdc").path("queryId").asText()).isEqualTo("q-42");
    } finally {
      LogFormat.apply(new LogSettings(LogSettings.TEXT, Optional.empty()));
    }
    assertThat(root.getAppender("json")).isNull();
    assertThat(encode(root, "text")).contains(" [q-42] - planned table=t");
  }

  @Test
  void settingsAcceptTextJsonAndOff() {
    assertThat(LogSettings.fromKeys(Map.of("log.format", "JSON")).format()).isEqualTo("json");
    assertThat(LogSettings.fromKeys(Map.of("log.slow-query-threshold", "off")).slowQueryThreshold()).isEmpty();
    assertThat(LogSettings.defaults().slowQueryThreshold()).contains(Duration.ofSeconds(10));
    assertThatThrownBy(() -> LogSettings.fromKeys(Map.of("log.format", "xml")))
        .hasMessageContaining("log.format must be 'text' or 'json'");
  }

  @SuppressWarnings("unchecked")
  private static String encode(Logger root, String appenderName) {
    OutputStreamAppender<ILoggingEvent> appender = (OutputStreamAppender<ILoggingEvent>) root.getAppender(
        appenderName);
    assertThat(appender).isNotNull();
    LoggingEvent event = new LoggingEvent(Logger.FQCN, root.getLoggerContext().getLogger("dev.lake.flight.X"),
        Level.INFO, "planned table={}", null, new Object[] {"t"});
    event.setMDCPropertyMap(Map.of("queryId", "q-42"));
    return new String(appender.getEncoder().encode(event), StandardCharsets.UTF_8);
  }
}
