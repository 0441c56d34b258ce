package dev.lake.registry.rocksdb;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.lake.registry.RegistryUnavailableException;
import java.io.IOException;
import java.time.Instant;

/**
 * Item values as JSON. Instants are ISO-8601 strings (lossless to the nanosecond). Unknown fields are ignored, so
 * a newer layout can add fields; a value that does not decode is reported as an unavailable registry, never as
 * an absent item.
 */
final class RegistryJson {
  private final ObjectMapper mapper;

  RegistryJson() {
    SimpleModule instants = new SimpleModule("lake-instants");
    instants.addSerializer(Instant.class, new JsonSerializer<>() {
      @Override
      public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeString(value.toString());
      }
    });
    instants.addDeserializer(Instant.class, new JsonDeserializer<>() {
      @Override
      public Instant deserialize(JsonParser parser, DeserializationContext ctx) throws IOException {
        return Instant.parse(parser.getValueAsString());
      }
    });
    this.mapper = JsonMapper.builder()
        .addModule(instants)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();
  }

  byte[] encode(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }

  <T> T decode(byte[] json, Class<T> type, String where) {
    try {
      return mapper.readValue(json, type);
    } catch (IOException | RuntimeException e) {
      String why = e instanceof JsonProcessingException jpe ? jpe.getOriginalMessage() : e.getMessage();
      throw new RegistryUnavailableException("registry item '" + where + "' is not a readable "
          + type.getSimpleName() + " (" + why + "); the registry files may be damaged: restore them "
          + "from a backup", e);
    }
  }
}
