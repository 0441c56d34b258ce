package dev.lake.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.Result;

/** lake's admin actions (Flight DoAction with JSON bodies) through a real client. */
public final class AdminClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AdminClient() {}

  /** Runs {@code type} with {@code body} and returns its one JSON result; errors surface as Flight exceptions. */
  public static JsonNode action(FlightTestClient client, String type, String body) {
    Iterator<Result> results = client.flight().doAction(
        new Action(type, body.getBytes(StandardCharsets.UTF_8)), client.auth());
    JsonNode out = null;
    while (results.hasNext()) {
      byte[] bytes = results.next().getBody();
      if (out == null) {
        try {
          out = JSON.readTree(bytes);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    if (out == null) {
      throw new IllegalStateException(type + " returned no result");
    }
    return out;
  }

  /** {@code lake.drop_table}: returns {"table", "generation", "version"} of the dropped incarnation. */
  public static JsonNode drop(FlightTestClient client, String table) {
    return action(client, "lake.drop_table", "{\"table\":" + quote(table) + "}");
  }

  public static JsonNode describe(FlightTestClient client, String table) {
    return action(client, "lake.describe_table", "{\"table\":" + quote(table) + "}");
  }

  public static JsonNode maintain(FlightTestClient client, String table) {
    return action(client, "lake.maintain_table", "{\"table\":" + quote(table) + "}");
  }

  private static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
