package dev.lake.query.exec;

import java.time.Clock;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.rel.type.TimeFrames;
import org.apache.calcite.schema.SchemaPlus;

/**
 * What Calcite's generated code of one statement reads at run time: the objects the planner stashed (Lance scan
 * calls), the scan sources of this execution, the statement's clock readings (lake runs in UTC) and its cancel flag.
 */
final class LakeDataContext implements DataContext {
  private final SchemaPlus rootSchema;
  private final JavaTypeFactory typeFactory;
  private final Map<String, Object> values = new HashMap<>();

  LakeDataContext(SchemaPlus rootSchema, JavaTypeFactory typeFactory, Map<String, Object> stashed, Clock clock,
      AtomicBoolean cancelFlag) {
    this.rootSchema = rootSchema;
    this.typeFactory = typeFactory;
    values.putAll(stashed);
    long now = clock.millis();
    values.put(Variable.UTC_TIMESTAMP.camelName, now);
    values.put(Variable.CURRENT_TIMESTAMP.camelName, now);
    values.put(Variable.LOCAL_TIMESTAMP.camelName, now);
    values.put(Variable.SYS_TIMESTAMP.camelName, now);
    values.put(Variable.TIME_ZONE.camelName, TimeZone.getTimeZone("UTC"));
    values.put(Variable.LOCALE.camelName, Locale.ROOT);
    values.put(Variable.CANCEL_FLAG.camelName, cancelFlag);
    values.put(Variable.TIME_FRAME_SET.camelName, TimeFrames.CORE);
  }

  @Override
  public SchemaPlus getRootSchema() {
    return rootSchema;
  }

  @Override
  public JavaTypeFactory getTypeFactory() {
    return typeFactory;
  }

  @Override
  public QueryProvider getQueryProvider() {
    return null;
  }

  @Override
  public Object get(String name) {
    return values.get(name);
  }
}
