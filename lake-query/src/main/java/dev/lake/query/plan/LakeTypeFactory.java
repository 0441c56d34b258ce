package dev.lake.query.plan;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;

/**
 * Calcite's Java type factory over {@link LakeTypeSystem}, with UTF-8 as the character set of strings (Calcite's
 * default, ISO-8859-1, cannot hold most text).
 */
public final class LakeTypeFactory extends JavaTypeFactoryImpl {
  public LakeTypeFactory() {
    super(LakeTypeSystem.INSTANCE);
  }

  @Override
  public Charset getDefaultCharset() {
    return StandardCharsets.UTF_8;
  }
}
