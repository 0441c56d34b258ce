package dev.lake.query;

import dev.lake.engine.EngineException;
import dev.lake.engine.TableEngine;
import dev.lake.query.exec.PinnedTables;
import dev.lake.query.exec.QueryResources;
import dev.lake.query.exec.StatementExecutor;
import dev.lake.query.plan.ArrowTypeMapping;
import dev.lake.query.plan.StatementPlan;
import dev.lake.query.plan.StatementPlanner;
import dev.lake.query.plan.ValidatedStatement;
import dev.lake.query.sql.Echo;
import dev.lake.query.sql.StatementParser;
import dev.lake.registry.RegistryException;
import dev.lake.registry.TableNotFoundException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.SqlNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * lake's read path: prepares and executes read-only SQL over registered Lance tables. Thread-safe; every call plans
 * its statement afresh.
 *
 * <p>Errors: a syntax or validation error, a disallowed statement, nesting too deep or a parameter that does not fit
 * is a {@link QueryRejectedException}; an unknown table (or a pinned version that is gone) a
 * {@link TableNotFoundException}; registry failures ({@link RegistryException}, e.g. unavailable) and storage
 * failures ({@link EngineException}) pass through; anything else that goes wrong while planning or running is a
 * {@link QueryExecutionException}. No {@link Error} escapes.
 */
public final class QueryService {
  private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);

  private final Catalog catalog;
  private final TableEngine engine;
  private final QueryOptions options;
  private final StatementExecutor executor;

  public QueryService(Catalog catalog, TableEngine engine, QueryOptions options) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.engine = Objects.requireNonNull(engine, "engine");
    this.options = Objects.requireNonNull(options, "options");
    this.executor = new StatementExecutor(options.batchSize(), options.clock(), QueryService::translate);
  }

  /**
   * Parses {@code sql}, checks the read-only policy, resolves its tables in the catalog (the pins are their
   * current registrations) and validates it.
   *
   * @return the exact Arrow result schema {@link #execute} streams for these pins, and one parameter field per
   *     {@code ?}
   */
  public PreparedQuery prepare(String sql) {
    try {
      SqlNode statement = StatementParser.parse(sql);
      StatementPlanner planner = new StatementPlanner(new CatalogTables(catalog));
      ValidatedStatement validated = planner.validate(statement);
      Map<String, TablePin> pins = new HashMap<>();
      validated.tables().forEach((name, table) -> pins.put(name, table.pin()));
      return new PreparedQuery(sql, validated.resultSchema(), parameterSchema(validated), pins);
    } catch (Throwable t) {
      throw failure(t, sql);
    }
  }

  /**
   * Plans {@code sql} against exactly {@code pins} (never "latest"), binds {@code parameters} and returns the
   * result stream. Batches are produced as the consumer calls {@code loadNextBatch()}; the schema equals
   * {@link #prepare}'s result schema for the same pins. The caller must close the reader (also to cancel): that
   * closes the scans and snapshots of the statement.
   *
   * @param pins the version of each table the statement reads, by lower-case name
   * @param parameters one value per {@code ?}: Long, Integer, Short, Byte, Double, Float, BigDecimal, String,
   *     Boolean, LocalDate, LocalTime, LocalDateTime, byte[], or null
   * @param allocator the parent of the statement's allocator; result batches live in a child of it
   */
  public ArrowReader execute(String sql, Map<String, TablePin> pins, List<Object> parameters,
      BufferAllocator allocator) {
    Objects.requireNonNull(pins, "pins");
    Objects.requireNonNull(parameters, "parameters");
    Objects.requireNonNull(allocator, "allocator");
    List<Object> values = Collections.unmodifiableList(new ArrayList<>(parameters));
    QueryResources resources = null;
    try {
      resources = new QueryResources(allocator, "lake-query", options.memoryLimitBytes());
      SqlNode statement = StatementParser.parse(sql);
      StatementPlanner planner =
          new StatementPlanner(new PinnedTables(pins, engine, resources, options.batchSize()));
      ValidatedStatement validated = planner.validate(statement);
      if (validated.explain()) {
        List<Object> bound = values.isEmpty() && validated.parameterCount() > 0 ? null : values;
        return executor.explain(validated, planner.plan(validated, bound), resources);
      }
      StatementPlan plan = planner.plan(validated, values);
      LOG.debug("statement planned path={} tables={} sql={}", plan.passThrough().isPresent() ? "pass-through"
          : "calcite", pins.values(), Echo.of(sql));
      return executor.stream(validated, plan, planner, resources);
    } catch (Throwable t) {
      if (resources != null) {
        resources.close();
      }
      throw failure(t, sql);
    }
  }

  private static Schema parameterSchema(ValidatedStatement statement) {
    List<Field> fields = new ArrayList<>();
    for (RelDataTypeField parameter : statement.parameterRowType().getFieldList()) {
      String name = "parameter_" + (parameter.getIndex() + 1);
      fields.add(ArrowTypeMapping.field(name, ArrowTypeMapping.toArrowType(name, parameter.getType()), true));
    }
    return new Schema(fields);
  }

  private static RuntimeException failure(Throwable t, String sql) {
    RuntimeException translated = translate(t);
    if (translated instanceof QueryExecutionException) {
      LOG.warn("statement failed sql={} error={}", Echo.of(sql), translated.getMessage(), t);
    } else {
      LOG.debug("statement refused sql={} error={}", Echo.of(sql), translated.getMessage());
    }
    return translated;
  }

  /** The one place where failures become lake's exception types. */
  static RuntimeException translate(Throwable t) {
    if (t instanceof QueryRejectedException || t instanceof QueryExecutionException
        || t instanceof TableNotFoundException || t instanceof RegistryException || t instanceof EngineException
        || t instanceof OutOfMemoryException) {
      return (RuntimeException) t;
    }
    if (t instanceof StackOverflowError) {
      return StatementParser.tooDeep();
    }
    String detail = Echo.of(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
    if (t instanceof ArithmeticException || t instanceof CalciteException || t instanceof NumberFormatException
        || t instanceof IllegalArgumentException || t instanceof ClassCastException) {
      return new QueryExecutionException("the statement failed on its data: " + detail, t);
    }
    return new QueryExecutionException("the statement failed unexpectedly (" + t.getClass().getSimpleName()
        + ": " + detail + "); this is a bug in lake, report it with the statement", t);
  }
}
