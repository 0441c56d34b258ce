package dev.lake.flight.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code lake maintain T}: compaction, retention and orphan cleanup now ({@code lake.maintain_table}; admin). */
@Command(name = "maintain", mixinStandardHelpOptions = true,
    description = "Compact a table and apply retention now (admin); the server also does this every "
        + "maintenance.interval.")
public final class MaintainCommand extends ClientCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "the table")
  String table;

  @Override
  void run(LakeClient client, PrintWriter out) throws Exception {
    JsonNode r = client.action("lake.maintain_table", Map.of("table", table));
    JsonNode compacted = r.path("compacted_to_version");
    out.printf("%s: %s; %d old versions removed, %d history records expired, %d idempotency keys expired, "
            + "%d orphan files deleted%n", r.path("table").asText(),
        compacted.isNull() || compacted.isMissingNode() ? "nothing to compact"
            : "compacted to version " + compacted.asLong(),
        r.path("versions_removed").asLong(), r.path("history_expired").asLong(), r.path("keys_expired").asLong(),
        r.path("orphan_files_deleted").asLong());
  }
}
