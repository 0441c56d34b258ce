package dev.lake.query.sql;

import dev.lake.query.model.QueryRejectedException;
import dev.lake.query.model.TableReference;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;

/**
 * Time travel by instant: rewrites {@code FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'} into a
 * reference to the table reference {@code t@2026-01-01T00:00:00Z} (aliased {@code t} unless the statement gives an
 * alias), which the planner resolves through the registry's history like {@code "t@v42"}. The timestamp is a
 * TIMESTAMP literal read as UTC; anything else (a parameter, an expression, a subquery as the source) is rejected,
 * because the version is pinned before parameters are bound.
 */
public final class SystemTime {
  private SystemTime() {}

  /** The instant {@code snapshot} asks for, or a {@link QueryRejectedException} saying how to write it. */
  static Instant instant(SqlSnapshot snapshot) {
    if (!(snapshot.getTableRef() instanceof SqlIdentifier)) {
      throw new QueryRejectedException("FOR SYSTEM_TIME AS OF applies to a table name only: write"
          + " FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'");
    }
    SqlNode period = snapshot.getPeriod();
    if (period instanceof SqlUnknownLiteral && "TIMESTAMP".equalsIgnoreCase(((SqlUnknownLiteral) period).tag)) {
      try {
        period = ((SqlUnknownLiteral) period).resolve(SqlTypeName.TIMESTAMP); // the parser leaves typed literals raw
      } catch (RuntimeException e) {
        throw new QueryRejectedException("FOR SYSTEM_TIME AS OF: '" + Echo.of(((SqlUnknownLiteral) period).getValue())
            + "' is not a timestamp; write TIMESTAMP 'yyyy-MM-dd HH:mm:ss' (read as UTC)", e);
      }
    }
    if (!(period instanceof SqlLiteral) || ((SqlLiteral) period).getTypeName() != SqlTypeName.TIMESTAMP) {
      throw new QueryRejectedException("FOR SYSTEM_TIME AS OF takes a TIMESTAMP literal (read as UTC), e.g."
          + " FOR SYSTEM_TIME AS OF TIMESTAMP '2026-01-01 00:00:00'; parameters and expressions are not supported");
    }
    TimestampString timestamp = ((SqlLiteral) period).getValueAs(TimestampString.class);
    return LocalDateTime.parse(timestamp.toString().replace(' ', 'T')).toInstant(ZoneOffset.UTC);
  }

  /** {@code statement} with every FOR SYSTEM_TIME AS OF replaced by a table reference (in place where possible). */
  public static SqlNode rewrite(SqlNode statement) {
    return rewrite(statement, false);
  }

  private static SqlNode rewrite(SqlNode node, boolean aliased) {
    if (node == null) {
      return null;
    }
    if (node.getKind() == SqlKind.SNAPSHOT) {
      SqlSnapshot snapshot = (SqlSnapshot) node;
      SqlIdentifier table = (SqlIdentifier) snapshot.getTableRef();
      String name = table.names.get(table.names.size() - 1);
      List<String> names = new ArrayList<>(table.names);
      names.set(names.size() - 1, name + "@" + TableReference.asOf(name, instant(snapshot)).asOf().orElseThrow());
      SqlIdentifier reference = new SqlIdentifier(names, table.getParserPosition());
      if (aliased) {
        return reference;
      }
      SqlParserPos pos = snapshot.getParserPosition();
      return SqlStdOperatorTable.AS.createCall(pos, reference, new SqlIdentifier(name, pos));
    }
    if (node instanceof SqlNodeList) {
      SqlNodeList list = (SqlNodeList) node;
      for (int i = 0; i < list.size(); i++) {
        SqlNode item = list.get(i);
        SqlNode rewritten = rewrite(item, false);
        if (rewritten != item) {
          list.set(i, rewritten);
        }
      }
      return node;
    }
    if (node instanceof SqlCall) {
      SqlCall call = (SqlCall) node;
      List<SqlNode> operands = call.getOperandList();
      for (int i = 0; i < operands.size(); i++) {
        SqlNode operand = operands.get(i);
        SqlNode rewritten = rewrite(operand, call.getKind() == SqlKind.AS && i == 0);
        if (rewritten != operand) {
          call.setOperand(i, rewritten);
        }
      }
    }
    return node;
  }
}
