package dev.lake.query.vector;

import java.util.function.Consumer;

/**
 * One split's work in a {@link VectorExecutor} execution (a fragment, a row range of one, or a spilled join's
 * partition): its rows after the plan's {@code before} operators, handed to a sink batch by batch on the thread that
 * runs it.
 */
@FunctionalInterface
interface SplitWork {
  void feed(Consumer<Batch> sink) throws Exception;
}
