/**
 * Flight session options ({@code SetSessionOptions}, {@code GetSessionOptions}, {@code CloseSession}) for
 * {@code catalog} and {@code schema}. A session lives in its cookie, not in a node's memory: the
 * {@code arrow_flight_session_id} cookie carries the session's id and options sealed with the cluster secret
 * ({@link dev.lake.flight.session.SessionTokens}), so any node of a cluster — a follower included — reads the same
 * session, and nodes keep no per-client state (docs/design.md, Topology).
 * {@link dev.lake.flight.session.SessionMiddleware} reads the cookie when a call starts and sets the new one when the
 * options change; {@link dev.lake.flight.session.SessionOptionsHandler} answers the three actions.
 */
package dev.lake.flight.session;
