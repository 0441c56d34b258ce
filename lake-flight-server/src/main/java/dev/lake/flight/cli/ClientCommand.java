package dev.lake.flight.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A client command that connects to a server ({@link ConnectionOptions}), does its one thing over Flight and prints to
 * the command line's output. Errors propagate to {@link CliErrors}, which turns them into an exit code and one line.
 */
abstract class ClientCommand implements Callable<Integer> {
  @Mixin
  ConnectionOptions connection;

  @Spec
  CommandSpec spec;

  /** What the command does with a connected client; {@code out} is flushed afterwards. */
  abstract void run(LakeClient client, PrintWriter out) throws Exception;

  @Override
  public final Integer call() throws Exception {
    try (LakeClient client = LakeClient.connect(connection.resolve(System.getenv()))) {
      PrintWriter out = spec.commandLine().getOut();
      run(client, out);
      out.flush();
      return CliErrors.OK;
    }
  }
}
