package dev.lake.query.plan;

import dev.lake.engine.SqlTypeNames;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The Flight SQL column metadata of a result column (the {@code ARROW:FLIGHT:SQL:*} field metadata keys of
 * FlightSql.proto), which the Flight SQL JDBC driver reads for {@code ResultSetMetaData}: the SQL type name, precision
 * and scale of every column, and for a stored column its catalog, schema and table. Values follow GetTables' column
 * metadata for the same Arrow type (type names are lake's SQL type names: BIGINT, DECIMAL, VARCHAR, TIMESTAMP, ...;
 * precision is the column size, scale the decimal or fractional-second digits), so a stored column is described the
 * same way in GetTables and in results (docs/api.md, "Tier 1: interactive queries").
 */
public final class ResultColumnMetadata {
  public static final String CATALOG_NAME = "ARROW:FLIGHT:SQL:CATALOG_NAME";
  public static final String SCHEMA_NAME = "ARROW:FLIGHT:SQL:SCHEMA_NAME";
  public static final String TABLE_NAME = "ARROW:FLIGHT:SQL:TABLE_NAME";
  public static final String TYPE_NAME = "ARROW:FLIGHT:SQL:TYPE_NAME";
  public static final String PRECISION = "ARROW:FLIGHT:SQL:PRECISION";
  public static final String SCALE = "ARROW:FLIGHT:SQL:SCALE";
  public static final String IS_AUTO_INCREMENT = "ARROW:FLIGHT:SQL:IS_AUTO_INCREMENT";
  public static final String IS_CASE_SENSITIVE = "ARROW:FLIGHT:SQL:IS_CASE_SENSITIVE";
  public static final String IS_READ_ONLY = "ARROW:FLIGHT:SQL:IS_READ_ONLY";
  public static final String IS_SEARCHABLE = "ARROW:FLIGHT:SQL:IS_SEARCHABLE";
  /** lake's one catalog and schema. */
  public static final String CATALOG = "lake";
  public static final String SCHEMA = "main";

  private ResultColumnMetadata() {}

  /**
   * The metadata of a result column of Arrow type {@code type}.
   *
   * @param table the stored table the column is, unchanged, a column of; null for a computed column
   */
  public static Map<String, String> of(ArrowType type, String table) {
    Map<String, String> m = new HashMap<>();
    m.put(IS_AUTO_INCREMENT, "0");
    m.put(IS_READ_ONLY, "1");
    if (table != null) {
      m.put(CATALOG_NAME, CATALOG);
      m.put(SCHEMA_NAME, SCHEMA);
      m.put(TABLE_NAME, table);
    }
    String name = typeName(type);
    if (name == null) {
      return m;
    }
    m.put(TYPE_NAME, name);
    m.put(IS_CASE_SENSITIVE, name.equals("VARCHAR") ? "1" : "0");
    m.put(IS_SEARCHABLE, "1");
    Integer precision = precision(type);
    if (precision != null) {
      m.put(PRECISION, Integer.toString(precision));
    }
    Integer scale = scale(type);
    if (scale != null) {
      m.put(SCALE, Integer.toString(scale));
    }
    return m;
  }

  /** lake's SQL type name of an Arrow type ({@link SqlTypeNames#name}), or null for one lake does not return. */
  public static String typeName(ArrowType type) {
    return SqlTypeNames.name(type);
  }

  /** The column size (JDBC precision), or null for variable-length types. */
  private static Integer precision(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        switch (((ArrowType.Int) type).getBitWidth()) {
          case 8: return 3;
          case 16: return 5;
          case 32: return 10;
          default: return 19;
        }
      case FloatingPoint:
        return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE ? 7 : 15;
      case Decimal: return ((ArrowType.Decimal) type).getPrecision();
      case FixedSizeBinary: return ((ArrowType.FixedSizeBinary) type).getByteWidth();
      case Bool: return 1;
      case Date: return 10;
      case Time: return withFraction(8, digits(((ArrowType.Time) type).getUnit()));
      case Timestamp: return withFraction(19, digits(((ArrowType.Timestamp) type).getUnit()));
      default: return null;
    }
  }

  /** The scale (JDBC decimal digits), or null where it does not apply. */
  private static Integer scale(ArrowType type) {
    switch (type.getTypeID()) {
      case Int: return 0;
      case Decimal: return ((ArrowType.Decimal) type).getScale();
      case Time: return digits(((ArrowType.Time) type).getUnit());
      case Timestamp: return digits(((ArrowType.Timestamp) type).getUnit());
      default: return null;
    }
  }

  private static int withFraction(int wholeSeconds, int digits) {
    return digits == 0 ? wholeSeconds : wholeSeconds + 1 + digits;
  }

  private static int digits(TimeUnit unit) {
    return SqlTypeNames.fractionDigits(unit);
  }
}
