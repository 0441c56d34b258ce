package dev.lake.flight.ticket;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Bound parameter values (the Java values the query service accepts) to and from typed JSON. */
public final class ParameterCodec {
  private ParameterCodec() {}

  public static ArrayNode toJson(List<Object> values) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    for (Object v : values) {
      ObjectNode n = array.addObject();
      if (v == null) {
        n.put("t", "null");
      } else if (v instanceof Long l) {
        n.put("t", "i64").put("v", l);
      } else if (v instanceof Integer i) {
        n.put("t", "i32").put("v", i);
      } else if (v instanceof Short s) {
        n.put("t", "i16").put("v", s);
      } else if (v instanceof Byte b) {
        n.put("t", "i8").put("v", b);
      } else if (v instanceof Double d) {
        n.put("t", "f64").put("v", Double.toString(d));
      } else if (v instanceof Float f) {
        n.put("t", "f32").put("v", Float.toString(f));
      } else if (v instanceof BigDecimal d) {
        n.put("t", "dec").put("v", d.toString());
      } else if (v instanceof String s) {
        n.put("t", "str").put("v", s);
      } else if (v instanceof Boolean b) {
        n.put("t", "bool").put("v", b);
      } else if (v instanceof LocalDate d) {
        n.put("t", "date").put("v", d.toString());
      } else if (v instanceof LocalTime t) {
        n.put("t", "time").put("v", t.toString());
      } else if (v instanceof LocalDateTime t) {
        n.put("t", "ts").put("v", t.toString());
      } else if (v instanceof byte[] b) {
        n.put("t", "bin").put("v", Base64.getEncoder().encodeToString(b));
      } else {
        throw new LakeException(ErrorCode.INVALID_ARGUMENT,
            "unsupported parameter value of type " + v.getClass().getSimpleName());
      }
    }
    return array;
  }

  public static List<Object> fromJson(JsonNode array) {
    List<Object> values = new ArrayList<>();
    if (array == null || array.isNull() || array.isMissingNode()) {
      return values;
    }
    if (!array.isArray()) {
      throw new InvalidTicketException("malformed parameters");
    }
    for (JsonNode n : array) {
      String v = n.path("v").asText();
      values.add(switch (n.path("t").asText()) {
        case "null" -> null;
        case "i64" -> Long.parseLong(v);
        case "i32" -> Integer.parseInt(v);
        case "i16" -> Short.parseShort(v);
        case "i8" -> Byte.parseByte(v);
        case "f64" -> Double.parseDouble(v);
        case "f32" -> Float.parseFloat(v);
        case "dec" -> new BigDecimal(v);
        case "str" -> v;
        case "bool" -> n.path("v").asBoolean();
        case "date" -> LocalDate.parse(v);
        case "time" -> LocalTime.parse(v);
        case "ts" -> LocalDateTime.parse(v);
        case "bin" -> Base64.getDecoder().decode(v);
        default -> throw new InvalidTicketException("malformed parameter type");
      });
    }
    return values;
  }
}
