package dev.lake.query.plan.lance;

import com.google.common.collect.ImmutableList;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.rel.rel2sql.RelToSqlConverter;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Writes a single-table subtree (filters, projections, aggregates, sorts and limits over one
 * {@link LanceTableScan}) as one statement in {@link LanceSqlDialect}, the way Calcite's JDBC adapter writes its
 * subtrees. The table is named {@link ScanSource#SQL_TABLE}: {@code Dataset.sql} binds that name to the pinned
 * dataset. Output columns are matched by position, never by name.
 *
 * <p>A BOOLEAN output column is written as {@code CAST(... AS TINYINT)} (0 or 1) and read back as BOOLEAN
 * ({@code ValueReaders.forColumn}, {@code VectorCopy}): Lance's SQL engine slices its result arrays for LIMIT, OFFSET
 * and its batch size, a sliced boolean array crosses the C data interface with a bit offset, and Arrow Java's import
 * ignores that offset, so the values (and NULLs) of every row but the slice's first would be read from the wrong bits.
 * An 8-bit integer array is sliced by moving its buffers and crosses exactly (docs/architecture.md, "Lance's SQL
 * engine's BOOLEAN columns").
 */
public final class LanceSqlGenerator extends RelToSqlConverter {
  private LanceSqlGenerator() {
    super(LanceSqlDialect.INSTANCE);
  }

  /** The SQL text of {@code subtree}. */
  static String sql(RelNode subtree) {
    SqlNode statement = new LanceSqlGenerator().visitRoot(booleansAsTinyints(subtree)).asStatement();
    return statement.toSqlString(config -> config.withDialect(LanceSqlDialect.INSTANCE)
        .withQuoteAllIdentifiers(true)
        .withAlwaysUseParentheses(false)
        .withSelectListItemsOnSeparateLines(false)
        .withUpdateSetListNewline(false)
        .withIndentation(0)
        .withClauseStartsLine(false)).getSql().replace('\n', ' ');
  }

  /** {@code rel}, with each BOOLEAN output column cast to TINYINT (nullability kept); {@code rel} when it has none. */
  static RelNode booleansAsTinyints(RelNode rel) {
    List<RelDataTypeField> fields = rel.getRowType().getFieldList();
    if (fields.stream().noneMatch(field -> field.getType().getSqlTypeName() == SqlTypeName.BOOLEAN)) {
      return rel;
    }
    RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
    RelDataTypeFactory types = rel.getCluster().getTypeFactory();
    List<RexNode> columns = new ArrayList<>();
    for (RelDataTypeField field : fields) {
      RexNode column = rexBuilder.makeInputRef(rel, field.getIndex());
      if (field.getType().getSqlTypeName() == SqlTypeName.BOOLEAN) {
        RelDataType tinyint = types.createTypeWithNullability(types.createSqlType(SqlTypeName.TINYINT),
            field.getType().isNullable());
        column = rexBuilder.makeAbstractCast(tinyint, column, false);
      }
      columns.add(column);
    }
    return LogicalProject.create(rel, List.of(), columns, rel.getRowType().getFieldNames(), Set.of());
  }

  /**
   * A Lance scan; called by the dispatcher by reflection. A bare scan is the table itself, under the name the
   * statement binds it to; what was pushed into a scan (filter, projection, limit) is written as the operators it
   * stands for.
   */
  public Result visit(LanceTableScan scan) {
    if (scan.bare()) {
      return result(new SqlIdentifier(ScanSource.SQL_TABLE, SqlParserPos.ZERO), ImmutableList.of(Clause.FROM), scan,
          null);
    }
    return dispatch(expand(scan));
  }

  /** Filter, projection and limit over the bare scan, equivalent to {@code scan}. */
  static RelNode expand(LanceTableScan scan) {
    RelNode rel = scan.asBare();
    RexBuilder rexBuilder = scan.getCluster().getRexBuilder();
    if (scan.condition().isPresent()) {
      rel = LogicalFilter.create(rel, scan.condition().get());
    } else if (scan.filter().isPresent()) {
      throw new IllegalStateException("a Lance scan's filter has no condition to write as SQL: " + scan);
    }
    List<RexNode> columns = new ArrayList<>();
    for (int column : scan.projects()) {
      columns.add(rexBuilder.makeInputRef(rel, column));
    }
    rel = LogicalProject.create(rel, List.of(), columns, scan.getRowType(), Set.of());
    if (scan.limit().isPresent()) {
      rel = LogicalSort.create(rel, RelCollations.EMPTY, null,
          rexBuilder.makeExactLiteral(BigDecimal.valueOf(scan.limit().get())));
    }
    return rel;
  }
}
