package dev.lake.it.support;

import dev.lake.registry.dynamodb.Dynoxide;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the S3 and DynamoDB stand-ins by hand, for trying a cluster-configured node the way a user starts one:
 * s3proxy (in this JVM, bucket {@code lake}) and dynoxide (a child process). Prints their endpoints and a matching
 * {@code cluster.yaml}, then runs until interrupted (Ctrl-C / SIGTERM), stopping both.
 *
 * <pre>
 *   ./mvnw -B -q install -DskipTests
 *   ./mvnw -B -q -pl lake-it dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 *   java -Dlake.project.root=$PWD -cp lake-it/target/test-classes:$(cat lake-it/target/cp.txt) \
 *       dev.lake.it.support.StandIns
 * </pre>
 */
public final class StandIns {
  private StandIns() {}

  public static void main(String[] args) throws Exception {
    S3ProxyServer s3 = S3ProxyServer.start("lake");
    Dynoxide dynamoDb = Dynoxide.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      dynamoDb.close();
      try {
        s3.close();
      } catch (Exception e) {
        System.err.println("stopping s3proxy failed: " + e);
      }
      stopped.countDown();
    }, "stand-ins-stop"));
    System.out.println("s3proxy:  " + s3.endpoint() + "  (bucket lake, access key " + S3ProxyServer.ACCESS_KEY
        + ")");
    System.out.println("dynoxide: " + dynamoDb.endpoint());
    System.out.println("""
        # cluster.yaml
        node:
          id: node-1
        data:
          dir: ./lake-node-1
          root: s3://lake/warehouse/
        s3:
          endpoint: %s
          region: us-east-1
        registry:
          backend: dynamodb
        dynamodb:
          endpoint: %s
          table: lake-registry
          create-table: true
        # credentials (also used for DynamoDB, which accepts any): export LAKE_S3_ACCESS_KEY_ID=%s
        #   LAKE_S3_SECRET_ACCESS_KEY=%s
        """.formatted(s3.endpoint(), dynamoDb.endpoint(), S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY));
    System.out.flush();
    stopped.await();
  }
}
