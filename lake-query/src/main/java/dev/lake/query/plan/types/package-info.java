/**
 * Types: the Arrow/SQL type mapping, lake's Calcite type system and type factory, the Java type of each result column
 * ({@link dev.lake.query.plan.types.ColumnType}) and the row shapes of Calcite's generated code.
 *
 * <p>Rule: imports no other planner package.
 */
package dev.lake.query.plan.types;
