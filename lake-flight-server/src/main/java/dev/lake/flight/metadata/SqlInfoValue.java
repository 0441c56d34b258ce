package dev.lake.flight.metadata;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One answer of GetSqlInfo, typed by the member of the {@code value} dense union that carries it
 * ({@code FlightSqlProducer.Schemas.GET_SQL_INFO_SCHEMA}). {@link #typeId()} is the union type id.
 */
public sealed interface SqlInfoValue {

  /** The dense-union type id of this value's member. */
  byte typeId();

  /** A {@code string_value} (type id 0). */
  record Utf8(String value) implements SqlInfoValue {
    /** Rejects null. */
    public Utf8 {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public byte typeId() {
      return 0;
    }
  }

  /** A {@code bool_value} (type id 1). */
  record Bool(boolean value) implements SqlInfoValue {
    @Override
    public byte typeId() {
      return 1;
    }
  }

  /** A {@code bigint_value} (type id 2). */
  record BigInt(long value) implements SqlInfoValue {
    @Override
    public byte typeId() {
      return 2;
    }
  }

  /** An {@code int32_bitmask} (type id 3): an int32 ordinal, bitmask or number. */
  record Int32(int value) implements SqlInfoValue {
    @Override
    public byte typeId() {
      return 3;
    }
  }

  /** A {@code string_list} (type id 4). */
  record StringList(List<String> values) implements SqlInfoValue {
    /** Copies the list; rejects null elements. */
    public StringList {
      values = List.copyOf(values);
    }

    @Override
    public byte typeId() {
      return 4;
    }
  }

  /** An {@code int32_to_int32_list_map} (type id 5). */
  record IntListMap(Map<Integer, List<Integer>> values) implements SqlInfoValue {
    /** Copies the map and its lists; rejects nulls. */
    public IntListMap {
      TreeMap<Integer, List<Integer>> copy = new TreeMap<>();
      values.forEach((key, list) -> copy.put(Objects.requireNonNull(key), List.copyOf(list)));
      values = Collections.unmodifiableMap(copy);
    }

    @Override
    public byte typeId() {
      return 5;
    }
  }
}
