package dev.lake.query.plan.types;

import java.lang.reflect.Type;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.BasicSqlType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite's Java type factory over {@link LakeTypeSystem}, with UTF-8 as the character set of strings (Calcite's
 * default, ISO-8859-1, cannot hold most text), and TIME of precision above 3 held as a long (micro- or nanoseconds
 * of the day do not fit Calcite's int milliseconds; {@link dev.lake.query.plan.enumerable.ExactRuntime}). Numbers and
 * datetimes have no common type: Calcite would make {@code VALUES (1), (DATE '2026-01-01')} or {@code SELECT 1 UNION
 * ALL SELECT DATE ...} a DATE column (1 read as 1970-01-02, or a ClassCastException while planning); lake refuses them
 * as it refuses {@code VALUES (1), ('a')}.
 */
public final class LakeTypeFactory extends JavaTypeFactoryImpl {
  public LakeTypeFactory() {
    super(LakeTypeSystem.INSTANCE);
  }

  @Override
  public Type getJavaClass(RelDataType type) {
    if (type instanceof BasicSqlType && type.getSqlTypeName() == SqlTypeName.TIME && type.getPrecision() > 3) {
      return type.isNullable() ? Long.class : long.class;
    }
    return super.getJavaClass(type);
  }

  @Override
  public RelDataType leastRestrictive(java.util.List<RelDataType> types) {
    boolean numeric = false;
    boolean datetime = false;
    for (RelDataType type : types) {
      numeric |= SqlTypeUtil.isNumeric(type);
      datetime |= SqlTypeUtil.isDatetime(type);
    }
    return numeric && datetime ? null : super.leastRestrictive(types);
  }

  @Override
  public Charset getDefaultCharset() {
    return StandardCharsets.UTF_8;
  }
}
