package dev.lake.query.plan;

import java.util.List;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * Calcite's catalog reader with lake's name resolution: {@code lake.main.t}, {@code main.t} and {@code t} all name
 * table {@code t}, matched case-insensitively.
 */
final class LakeCatalogReader extends CalciteCatalogReader {
  private static final List<List<String>> SCHEMA_PATHS =
      List.of(List.of("lake", "main"), List.of("lake"), List.of());

  LakeCatalogReader(CalciteSchema rootSchema, RelDataTypeFactory typeFactory, CalciteConnectionConfig config) {
    super(rootSchema, SqlNameMatchers.withCaseSensitive(false), SCHEMA_PATHS, typeFactory, config);
  }
}
