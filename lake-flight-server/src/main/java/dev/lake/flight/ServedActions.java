package dev.lake.flight;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.FlightConstants;
import org.apache.arrow.flight.sql.FlightSqlUtils;

/**
 * What ListActions names — only the actions that work on lake — and the answer for the Flight SQL features lake does
 * not have (transactions, savepoints, Substrait plans): UNIMPLEMENTED with a message that says so (docs/api.md,
 * "Tier 1: interactive queries").
 */
final class ServedActions {
  private ServedActions() {}

  /** The Flight SQL and Flight actions lake serves, then its own admin actions. */
  static List<ActionType> all(List<ActionType> admin) {
    List<ActionType> out = new ArrayList<>();
    out.add(FlightSqlUtils.FLIGHT_SQL_CREATE_PREPARED_STATEMENT);
    out.add(FlightSqlUtils.FLIGHT_SQL_CLOSE_PREPARED_STATEMENT);
    out.add(FlightConstants.CANCEL_FLIGHT_INFO);
    out.add(FlightSqlUtils.FLIGHT_SQL_CANCEL_QUERY); // deprecated by the spec; answered as CancelFlightInfo
    out.add(FlightConstants.SET_SESSION_OPTIONS);
    out.add(FlightConstants.GET_SESSION_OPTIONS);
    out.add(FlightConstants.CLOSE_SESSION);
    out.addAll(admin);
    return out;
  }

  static LakeException noTransactions() {
    return new LakeException(ErrorCode.UNIMPLEMENTED, "lake has no transactions or savepoints: every query reads"
        + " one pinned snapshot of its tables and every ingest commits on its own; run statements without a"
        + " transaction");
  }

  static LakeException noSubstrait() {
    return new LakeException(ErrorCode.UNIMPLEMENTED, "lake does not run Substrait plans; send SQL"
        + " (CommandStatementQuery or a prepared statement)");
  }
}
