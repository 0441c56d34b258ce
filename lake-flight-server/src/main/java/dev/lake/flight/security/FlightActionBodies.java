package dev.lake.flight.security;

import dev.lake.registry.error.ErrorCode;
import dev.lake.registry.error.LakeException;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.FlightConstants;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.RenewFlightEndpointRequest;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.sql.FlightSqlUtils;
import org.apache.arrow.flight.sql.impl.FlightSql;

/**
 * Checks the bodies of the standard Flight actions before Arrow's {@code FlightSqlProducer.doAction} decodes them:
 * Arrow answers INTERNAL for a body it cannot decode, while a malformed request is the client's error
 * (INVALID_ARGUMENT, docs/design.md). Actions it does not know pass unchecked.
 */
public final class FlightActionBodies {
  /** The request message of each Flight SQL action whose body Arrow's producer unpacks itself. */
  private static final java.util.Map<String, Class<? extends com.google.protobuf.Message>> SQL_REQUESTS =
      java.util.Map.of(
          FlightSqlUtils.FLIGHT_SQL_BEGIN_TRANSACTION.getType(), FlightSql.ActionBeginTransactionRequest.class,
          FlightSqlUtils.FLIGHT_SQL_BEGIN_SAVEPOINT.getType(), FlightSql.ActionBeginSavepointRequest.class,
          FlightSqlUtils.FLIGHT_SQL_END_TRANSACTION.getType(), FlightSql.ActionEndTransactionRequest.class,
          FlightSqlUtils.FLIGHT_SQL_END_SAVEPOINT.getType(), FlightSql.ActionEndSavepointRequest.class,
          FlightSqlUtils.FLIGHT_SQL_CREATE_PREPARED_STATEMENT.getType(),
          FlightSql.ActionCreatePreparedStatementRequest.class,
          FlightSqlUtils.FLIGHT_SQL_CREATE_PREPARED_SUBSTRAIT_PLAN.getType(),
          FlightSql.ActionCreatePreparedSubstraitPlanRequest.class,
          FlightSqlUtils.FLIGHT_SQL_CLOSE_PREPARED_STATEMENT.getType(),
          FlightSql.ActionClosePreparedStatementRequest.class);

  private FlightActionBodies() {}

  /** The core Flight actions (not Flight SQL's) that Arrow's producer routes. */
  public static boolean isCoreFlightAction(String type) {
    return type.equals(FlightConstants.CANCEL_FLIGHT_INFO.getType())
        || type.equals(FlightConstants.RENEW_FLIGHT_ENDPOINT.getType())
        || type.equals(FlightConstants.SET_SESSION_OPTIONS.getType())
        || type.equals(FlightConstants.GET_SESSION_OPTIONS.getType())
        || type.equals(FlightConstants.CLOSE_SESSION.getType());
  }

  /** @throws LakeException (INVALID_ARGUMENT) when a standard action's body does not decode */
  public static void check(Action action) {
    String type = action.getType();
    byte[] body = action.getBody() == null ? new byte[0] : action.getBody();
    try {
      if (type.equals(FlightConstants.CANCEL_FLIGHT_INFO.getType())) {
        CancelFlightInfoRequest.deserialize(ByteBuffer.wrap(body));
      } else if (type.equals(FlightConstants.RENEW_FLIGHT_ENDPOINT.getType())) {
        RenewFlightEndpointRequest.deserialize(ByteBuffer.wrap(body));
      } else if (type.equals(FlightConstants.SET_SESSION_OPTIONS.getType())) {
        SetSessionOptionsRequest.deserialize(ByteBuffer.wrap(body));
      } else if (type.equals(FlightConstants.GET_SESSION_OPTIONS.getType())) {
        GetSessionOptionsRequest.deserialize(ByteBuffer.wrap(body));
      } else if (type.equals(FlightConstants.CLOSE_SESSION.getType())) {
        CloseSessionRequest.deserialize(ByteBuffer.wrap(body));
      } else if (type.equals(FlightSqlUtils.FLIGHT_SQL_CANCEL_QUERY.getType())) {
        @SuppressWarnings("deprecation")
        FlightSql.ActionCancelQueryRequest request = Any.parseFrom(body)
            .unpack(FlightSql.ActionCancelQueryRequest.class);
        FlightInfo.deserialize(request.getInfo().asReadOnlyByteBuffer());
      } else if (SQL_REQUESTS.containsKey(type)) {
        // Arrow's producer answers INTERNAL for some bodies it cannot unpack (an empty one, for instance)
        Any.parseFrom(body).unpack(SQL_REQUESTS.get(type));
      }
    } catch (IOException | URISyntaxException | RuntimeException e) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT,
          "the body of action '" + type + "' is malformed: it does not decode as "
          + "that action's request message");
    }
  }
}
