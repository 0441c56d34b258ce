package dev.lake.registry.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

class DynoxideTest {
  @TempDir Path root;

  @Test
  void aMissingBinaryFailsWithTheCommandThatInstallsIt() {
    assertThatThrownBy(() -> Dynoxide.binary(root))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("npm ci")
        .hasMessageContaining(root.toString());
  }

  @Test
  void theProjectRootHoldsThePinnedBinary() {
    assertThat(Dynoxide.projectRoot().resolve("package.json")).exists();
    assertThat(Dynoxide.binary()).isExecutable();
  }

  @Test
  void aStartedServerAnswersAndIsGoneAfterClose() throws Exception {
    Dynoxide server = Dynoxide.start();
    try (DynamoDbClient client = server.newClient()) {
      assertThat(client.listTables().tableNames()).isEmpty();
    } finally {
      server.close();
    }
    assertThat(server.isRunning()).isFalse();
    assertThatThrownBy(() -> {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 1000);
      }
    }).isInstanceOf(ConnectException.class);
  }
}
