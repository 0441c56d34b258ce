package dev.lake.flight.metadata;

import java.sql.Types;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.sql.impl.FlightSql.Searchable;
import org.apache.arrow.flight.sql.impl.FlightSql.XdbcDataType;
import org.apache.arrow.flight.sql.impl.FlightSql.XdbcDatetimeSubcode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The SQL types lake stores, with what GetXdbcTypeInfo says about each and the Arrow types that
 * carry them, following lake-query's Arrow-to-Calcite mapping (a timestamp with a zone is Calcite's
 * TIMESTAMP WITH LOCAL TIME ZONE; a fixed-size binary is BINARY). {@link #dataType()} is the {@link
 * java.sql.Types} code the Flight SQL JDBC driver reports for the same Arrow type (except REAL: the
 * driver calls a float32 column FLOAT).
 */
enum LakeSqlType {
  TINYINT("TINYINT", Types.TINYINT, 3, null, null, null, Category.INTEGER),
  SMALLINT("SMALLINT", Types.SMALLINT, 5, null, null, null, Category.INTEGER),
  INTEGER("INTEGER", Types.INTEGER, 10, null, null, null, Category.INTEGER),
  BIGINT("BIGINT", Types.BIGINT, 19, null, null, null, Category.INTEGER),
  REAL("REAL", Types.REAL, 7, null, null, null, Category.APPROXIMATE),
  DOUBLE("DOUBLE", Types.DOUBLE, 15, null, null, null, Category.APPROXIMATE),
  DECIMAL(
      "DECIMAL",
      Types.DECIMAL,
      LakeSqlType.MAX_DECIMAL_PRECISION,
      null,
      null,
      List.of("precision", "scale"),
      Category.DECIMAL),
  VARCHAR("VARCHAR", Types.VARCHAR, 65536, "'", "'", List.of("length"), Category.CHARACTER),
  BOOLEAN("BOOLEAN", Types.BOOLEAN, 1, null, null, null, Category.BOOLEAN),
  DATE("DATE", Types.DATE, 10, "DATE '", "'", null, Category.DATE),
  TIME("TIME", Types.TIME, 8 + 1 + 9, "TIME '", "'", List.of("precision"), Category.TIME),
  TIMESTAMP(
      "TIMESTAMP",
      Types.TIMESTAMP,
      19 + 1 + 9,
      "TIMESTAMP '",
      "'",
      List.of("precision"),
      Category.TIMESTAMP),
  TIMESTAMP_WITH_LOCAL_TIME_ZONE(
      "TIMESTAMP WITH LOCAL TIME ZONE",
      Types.TIMESTAMP_WITH_TIMEZONE,
      19 + 1 + 9,
      "TIMESTAMP WITH LOCAL TIME ZONE '",
      "'",
      List.of("precision"),
      Category.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
  BINARY("BINARY", Types.BINARY, 65536, "X'", "'", List.of("length"), Category.BINARY),
  VARBINARY("VARBINARY", Types.VARBINARY, 65536, "X'", "'", List.of("length"), Category.BINARY);

  /** Largest DECIMAL precision (Arrow decimal128). */
  static final int MAX_DECIMAL_PRECISION = 38;

  /** Most fractional-second digits a stored TIME or TIMESTAMP carries (nanoseconds). */
  static final int MAX_FRACTION_DIGITS = 9;

  private enum Category {
    INTEGER,
    APPROXIMATE,
    DECIMAL,
    CHARACTER,
    BOOLEAN,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_WITH_LOCAL_TIME_ZONE,
    BINARY
  }

  private final String typeName;
  private final int dataType;
  private final int columnSize;
  private final String literalPrefix;
  private final String literalSuffix;
  private final List<String> createParams;
  private final Category category;

  LakeSqlType(
      String typeName,
      int dataType,
      int columnSize,
      String literalPrefix,
      String literalSuffix,
      List<String> createParams,
      Category category) {
    this.typeName = typeName;
    this.dataType = dataType;
    this.columnSize = columnSize;
    this.literalPrefix = literalPrefix;
    this.literalSuffix = literalSuffix;
    this.createParams = createParams;
    this.category = category;
  }

  /** The SQL type of an Arrow type, if it is one lake stores. */
  static Optional<LakeSqlType> of(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        ArrowType.Int integer = (ArrowType.Int) type;
        if (!integer.getIsSigned()) {
          return Optional.empty();
        }
        return switch (integer.getBitWidth()) {
          case 8 -> Optional.of(TINYINT);
          case 16 -> Optional.of(SMALLINT);
          case 32 -> Optional.of(INTEGER);
          case 64 -> Optional.of(BIGINT);
          default -> Optional.empty();
        };
      case FloatingPoint:
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        return switch (precision) {
          case SINGLE -> Optional.of(REAL);
          case DOUBLE -> Optional.of(DOUBLE);
          default -> Optional.empty();
        };
      case Decimal:
        return Optional.of(DECIMAL);
      case Utf8:
      case LargeUtf8:
      case Utf8View:
        return Optional.of(VARCHAR);
      case Bool:
        return Optional.of(BOOLEAN);
      case Date:
        return Optional.of(DATE);
      case Time:
        return Optional.of(TIME);
      case Timestamp:
        String zone = ((ArrowType.Timestamp) type).getTimezone();
        return Optional.of(
            zone == null || zone.isEmpty() ? TIMESTAMP : TIMESTAMP_WITH_LOCAL_TIME_ZONE);
      case Binary:
      case LargeBinary:
      case BinaryView:
        return Optional.of(VARBINARY);
      case FixedSizeBinary:
        return Optional.of(BINARY);
      default:
        return Optional.empty();
    }
  }

  /** The SQL name, as in DDL and in {@code type_name}. */
  String typeName() {
    return typeName;
  }

  /** The {@link java.sql.Types} code. */
  int dataType() {
    return dataType;
  }

  /** The largest column size (precision, length or display size) this type can have. */
  int columnSize() {
    return columnSize;
  }

  /** The prefix of a literal of this type, or null when literals are bare. */
  String literalPrefix() {
    return literalPrefix;
  }

  /** The suffix of a literal of this type, or null when literals are bare. */
  String literalSuffix() {
    return literalSuffix;
  }

  /** The parameters a type declaration takes, or null when it takes none. */
  List<String> createParams() {
    return createParams;
  }

  /** Whether comparisons of this type's values are case-sensitive (only strings). */
  boolean caseSensitive() {
    return category == Category.CHARACTER;
  }

  /** How the type can be used in WHERE: strings with every operator, the rest all but LIKE. */
  int searchable() {
    return category == Category.CHARACTER
        ? Searchable.SEARCHABLE_FULL_VALUE
        : Searchable.SEARCHABLE_BASIC_VALUE;
  }

  /** Whether this is a numeric type (which has an unsigned attribute and a radix). */
  boolean numeric() {
    return category == Category.INTEGER
        || category == Category.APPROXIMATE
        || category == Category.DECIMAL;
  }

  /** The smallest scale, or null where scale does not apply. */
  Integer minimumScale() {
    return maximumScale() == null ? null : 0;
  }

  /** The largest scale, or null where scale does not apply. */
  Integer maximumScale() {
    return switch (category) {
      case INTEGER -> 0;
      case DECIMAL -> MAX_DECIMAL_PRECISION;
      case TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> MAX_FRACTION_DIGITS;
      default -> null;
    };
  }

  /** The XDBC (ODBC descriptor) type: the datetime types share XDBC_DATETIME. */
  int sqlDataType() {
    return datetimeSubcode() == null ? dataType : XdbcDataType.XDBC_DATETIME_VALUE;
  }

  /** The datetime subcode for datetime types, else null. */
  Integer datetimeSubcode() {
    return switch (category) {
      case DATE -> XdbcDatetimeSubcode.XDBC_SUBCODE_DATE_VALUE;
      case TIME -> XdbcDatetimeSubcode.XDBC_SUBCODE_TIME_VALUE;
      case TIMESTAMP -> XdbcDatetimeSubcode.XDBC_SUBCODE_TIMESTAMP_VALUE;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          XdbcDatetimeSubcode.XDBC_SUBCODE_TIMESTAMP_WITH_TIMEZONE_VALUE;
      default -> null;
    };
  }

  /** The radix of the column size: 10 for numbers, else null. */
  Integer numPrecRadix() {
    return numeric() ? 10 : null;
  }
}
