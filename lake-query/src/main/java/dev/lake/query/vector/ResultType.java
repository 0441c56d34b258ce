package dev.lake.query.vector;

/**
 * The row runtime's representation of a result column, which the planner derives from its SQL type: Long, Integer,
 * Short, Byte, Integer days (DATE), BigDecimal at the column's scale, Double, Float, Boolean, String.
 */
public enum ResultType {
  BIGINT,
  INTEGER,
  SMALLINT,
  TINYINT,
  DATE,
  DECIMAL,
  DOUBLE,
  FLOAT,
  BOOLEAN,
  STRING
}
