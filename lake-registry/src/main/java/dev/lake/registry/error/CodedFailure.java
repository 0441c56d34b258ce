package dev.lake.registry.error;

/**
 * A failure that states the status a client receives for it. Every exception a client can receive implements
 * this; the Flight layer's one mapping reads {@link #errorCode()} and never a message's text. A throwable that does
 * not implement it is a bug in lake and answers INTERNAL.
 *
 * <p>The message of a coded failure is sent to the client: it says what happened and what to do, and never holds a
 * server path, a bucket prefix, a Java class name or a stack frame.
 */
public interface CodedFailure {
  ErrorCode errorCode();
}
