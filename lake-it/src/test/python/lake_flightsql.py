"""A small Flight SQL client for lake on top of pyarrow.flight.

pyarrow.flight speaks Flight but not Flight SQL: Flight SQL commands are protobuf messages packed into
``google.protobuf.Any``. Their classes come from Arrow's own ``FlightSql.proto`` and ``Flight.proto`` (Arrow
18.3.0, the version lake is built on), compiled with grpcio-tools' protoc:

    python -m grpc_tools.protoc -I DIR --python_out=OUT Flight.proto FlightSql.proto

(both files are in the arrow-java ``flight-core`` jar and in the ``format/`` directory of the Arrow repository).
Put OUT on ``sys.path`` (or ``PYTHONPATH``) before importing this module.
"""

import http.cookies

import pyarrow as pa
import pyarrow.flight as flight
from google.protobuf import any_pb2

import Flight_pb2 as fpb
import FlightSql_pb2 as sql

CREATE = "create"
APPEND = "append"
REPLACE = "replace"
FAIL = "fail"

_TABLE = sql.CommandStatementIngest.TableDefinitionOptions


def pack(message):
    """The bytes of ``message`` wrapped in ``google.protobuf.Any``: the form of every Flight SQL command."""
    wrapped = any_pb2.Any()
    wrapped.Pack(message)
    return wrapped.SerializeToString()


def unpack(data, message):
    """Reads ``data`` (an ``Any``) into ``message`` and returns it."""
    wrapped = any_pb2.Any()
    wrapped.ParseFromString(data)
    if not wrapped.Unpack(message):
        raise ValueError("expected %s, got %s" % (message.DESCRIPTOR.full_name, wrapped.type_url))
    return message


def read_schema(data):
    """A schema sent as an encapsulated IPC message (prepared statements' dataset and parameter schemas)."""
    return pa.ipc.read_schema(pa.py_buffer(data))


class _Cookies(flight.ClientMiddlewareFactory):
    """Keeps the cookies the server sets (the session cookie) and sends them back, like a browser would."""

    def __init__(self):
        self.jar = {}

    def start_call(self, info):
        return _CookieCall(self)


class _CookieCall(flight.ClientMiddleware):
    def __init__(self, factory):
        self.factory = factory

    def sending_headers(self):
        if not self.factory.jar:
            return {}
        return {"cookie": "; ".join("%s=%s" % kv for kv in self.factory.jar.items())}

    def received_headers(self, headers):
        for header in headers.get("set-cookie", []):
            cookie = http.cookies.SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.factory.jar.pop(name, None)
                else:
                    self.factory.jar[name] = morsel.value


class LakeClient:
    """One authenticated connection to a lake server (``grpc://host:port``)."""

    def __init__(self, url, user="lake", password="lake", cookies=True):
        self.cookies = _Cookies() if cookies else None
        self.client = flight.FlightClient(url, middleware=[self.cookies] if cookies else [])
        token = self.client.authenticate_basic_token(user, password)
        self.options = flight.FlightCallOptions(headers=[token])

    def close(self):
        self.client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- queries ----

    def flight_info(self, query):
        """GetFlightInfo of a statement: its result schema and the endpoint(s) to read."""
        descriptor = flight.FlightDescriptor.for_command(pack(sql.CommandStatementQuery(query=query)))
        return self.client.get_flight_info(descriptor, self.options)

    def read(self, info):
        """DoGet of every endpoint of a FlightInfo, as one table (the stream's schema kept)."""
        tables = [self.client.do_get(endpoint.ticket, self.options).read_all() for endpoint in info.endpoints]
        return pa.concat_tables(tables) if len(tables) > 1 else tables[0]

    def query(self, query):
        """Runs a statement; returns the result as an Arrow table."""
        return self.read(self.flight_info(query))

    # ---- prepared statements ----

    def prepare(self, query):
        """CreatePreparedStatement: (handle, dataset schema, parameter schema)."""
        body = pack(sql.ActionCreatePreparedStatementRequest(query=query))
        results = list(self.client.do_action(flight.Action("CreatePreparedStatement", body), self.options))
        result = unpack(results[0].body.to_pybytes(), sql.ActionCreatePreparedStatementResult())
        return (result.prepared_statement_handle, read_schema(result.dataset_schema),
                read_schema(result.parameter_schema) if result.parameter_schema else pa.schema([]))

    def bind(self, handle, parameters):
        """DoPut of parameter rows (an Arrow table) to a prepared statement; returns the handle to execute."""
        command = sql.CommandPreparedStatementQuery(prepared_statement_handle=handle)
        descriptor = flight.FlightDescriptor.for_command(pack(command))
        writer, reader = self.client.do_put(descriptor, parameters.schema, self.options)
        writer.write_table(parameters)
        writer.done_writing()
        answer = reader.read()
        writer.close()
        if answer is None:
            return handle
        result = sql.DoPutPreparedStatementResult()
        result.ParseFromString(answer.to_pybytes())
        return result.prepared_statement_handle if result.HasField("prepared_statement_handle") else handle

    def prepared_info(self, handle):
        command = sql.CommandPreparedStatementQuery(prepared_statement_handle=handle)
        descriptor = flight.FlightDescriptor.for_command(pack(command))
        return self.client.get_flight_info(descriptor, self.options)

    def execute(self, query, parameters=None):
        """Prepares ``query``, binds ``parameters`` (an Arrow table, one row per execution) and reads the result."""
        handle, _, _ = self.prepare(query)
        if parameters is not None:
            handle = self.bind(handle, parameters)
        return self.read(self.prepared_info(handle))

    # ---- bulk ingest ----

    def ingest(self, table_name, data, mode=CREATE):
        """Bulk ingest (CommandStatementIngest) of an Arrow table; returns the row count the server reports."""
        if_missing = {CREATE: _TABLE.TABLE_NOT_EXIST_OPTION_CREATE, REPLACE: _TABLE.TABLE_NOT_EXIST_OPTION_CREATE,
                      APPEND: _TABLE.TABLE_NOT_EXIST_OPTION_FAIL, FAIL: _TABLE.TABLE_NOT_EXIST_OPTION_CREATE}[mode]
        if_exists = {CREATE: _TABLE.TABLE_EXISTS_OPTION_FAIL, FAIL: _TABLE.TABLE_EXISTS_OPTION_FAIL,
                     APPEND: _TABLE.TABLE_EXISTS_OPTION_APPEND, REPLACE: _TABLE.TABLE_EXISTS_OPTION_REPLACE}[mode]
        command = sql.CommandStatementIngest(
            table=table_name, table_definition_options=_TABLE(if_not_exist=if_missing, if_exists=if_exists))
        descriptor = flight.FlightDescriptor.for_command(pack(command))
        writer, reader = self.client.do_put(descriptor, data.schema, self.options)
        try:
            writer.write_table(data)
            writer.done_writing()
            answer = reader.read()
        finally:
            writer.close()
        result = sql.DoPutUpdateResult()
        result.ParseFromString(answer.to_pybytes())
        return result.record_count

    # ---- metadata ----

    def sql_info(self, *codes):
        """GetSqlInfo: {code: value} for the given ``SqlInfo`` codes."""
        descriptor = flight.FlightDescriptor.for_command(pack(sql.CommandGetSqlInfo(info=list(codes))))
        table = self.read(self.client.get_flight_info(descriptor, self.options))
        return {row["info_name"]: row["value"] for row in table.to_pylist()}

    def tables(self, include_schema=True):
        """GetTables: {table name: schema (or None)}."""
        command = sql.CommandGetTables(include_schema=include_schema)
        table = self.read(self.client.get_flight_info(flight.FlightDescriptor.for_command(pack(command)),
                                                      self.options))
        out = {}
        for row in table.to_pylist():
            out[row["table_name"]] = read_schema(row["table_schema"]) if include_schema else None
        return out

    def list_actions(self):
        return {action.type for action in self.client.list_actions(self.options)}

    def action(self, kind, body=b""):
        """DoAction; returns the bodies of its results."""
        return [r.body.to_pybytes() for r in self.client.do_action(flight.Action(kind, body), self.options)]

    # ---- session options (Flight.proto messages, serialized as they are) ----

    def set_session_options(self, **options):
        request = fpb.SetSessionOptionsRequest()
        for name, value in options.items():
            request.session_options[name].string_value = value
        result = fpb.SetSessionOptionsResult()
        result.ParseFromString(self.action("SetSessionOptions", request.SerializeToString())[0])
        return {name: error.value for name, error in result.errors.items()}

    def get_session_options(self):
        result = fpb.GetSessionOptionsResult()
        result.ParseFromString(self.action("GetSessionOptions", fpb.GetSessionOptionsRequest().SerializeToString())[0])
        return {name: value.string_value for name, value in result.session_options.items()}

    def close_session(self):
        result = fpb.CloseSessionResult()
        result.ParseFromString(self.action("CloseSession", fpb.CloseSessionRequest().SerializeToString())[0])
        return result.status
