/**
 * Guards on incoming DoPut streams, before Arrow's reader and Lance see them: every message is checked (descriptor
 * first, schema before batches, one schema, body as long as its header declares, buffers inside the body, dictionary
 * ids the schema declares, a parsable header) and a stream that breaks a rule is answered INVALID_ARGUMENT at once,
 * through the one error mapping; the server thread waiting for a first message is freed at the first-message deadline
 * or as soon as the client ends, cancels or breaks the stream ({@link dev.lake.flight.streams.StreamWatch}).
 */
package dev.lake.flight.streams;
