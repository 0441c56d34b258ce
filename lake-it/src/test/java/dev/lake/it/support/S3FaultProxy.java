package dev.lake.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 proxy in front of an S3 stand-in that injects one fault, to test lake's start-up checks
 * against stores s3proxy cannot imitate. Each client connection carries one request ({@code Connection: close} is
 * forced both ways); everything else is forwarded byte for byte, so signatures stay valid unless a signed header
 * is removed.
 */
public final class S3FaultProxy implements AutoCloseable {

  /** The fault to inject. */
  public enum Fault {
    /** Removes {@code If-None-Match} from every request: a store that ignores conditional writes. */
    STRIP_IF_NONE_MATCH,
    /**
     * Answers 403 AccessDenied to DeleteObject ({@code DELETE}) and DeleteObjects ({@code POST ?delete}), as S3
     * does for credentials without {@code s3:DeleteObject}; everything else passes.
     */
    DENY_DELETE
  }

  private final ServerSocket server;
  private final int upstreamPort;
  private final Fault fault;
  private final ExecutorService pool;
  private final AtomicInteger faultsInjected = new AtomicInteger();

  private S3FaultProxy(ServerSocket server, int upstreamPort, Fault fault) {
    this.server = server;
    this.upstreamPort = upstreamPort;
    this.fault = fault;
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "s3-fault-proxy-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** Listens on 127.0.0.1 and a free port and forwards to {@code 127.0.0.1:upstreamPort}. */
  public static S3FaultProxy start(int upstreamPort, Fault fault) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    S3FaultProxy proxy = new S3FaultProxy(server, upstreamPort, fault);
    proxy.pool.submit(proxy::acceptLoop);
    return proxy;
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** How many requests the fault changed or answered so far. */
  public int faultsInjected() {
    return faultsInjected.get();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        pool.submit(() -> handle(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void handle(Socket client) {
    try (client; Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
      InputStream fromClient = client.getInputStream();
      OutputStream toClient = client.getOutputStream();
      List<String> request = readHead(fromClient);
      if (request.isEmpty()) {
        return;
      }
      String[] requestLine = request.get(0).split(" ");
      String method = requestLine[0];
      String target = requestLine.length > 1 ? requestLine[1] : "";
      if (fault == Fault.DENY_DELETE && (method.equals("DELETE")
          || (method.equals("POST") && target.matches(".*[?&]delete(=[^&]*)?(&.*)?$")))) {
        faultsInjected.incrementAndGet();
        if (header(request, "expect") == null) {
          fromClient.readNBytes((int) contentLength(request));
        }
        accessDenied(toClient);
        return;
      }
      List<String> forwarded = new ArrayList<>();
      for (String line : request) {
        String name = line.contains(":") ? line.substring(0, line.indexOf(':')).strip().toLowerCase(Locale.ROOT) : "";
        if (name.equals("connection")) {
          continue;
        }
        if (fault == Fault.STRIP_IF_NONE_MATCH && name.equals("if-none-match")) {
          faultsInjected.incrementAndGet();
          continue;
        }
        forwarded.add(line);
      }
      forwarded.add("Connection: close");
      OutputStream toUpstream = upstream.getOutputStream();
      toUpstream.write(head(forwarded));
      toUpstream.flush();
      pool.submit(() -> pump(fromClient, toUpstream));
      InputStream fromUpstream = upstream.getInputStream();
      while (true) {
        List<String> response = readHead(fromUpstream);
        if (response.isEmpty()) {
          return;
        }
        boolean interim = response.get(0).matches("HTTP/1\\.1 1\\d\\d.*");
        if (!interim) {
          response.removeIf(l -> l.toLowerCase(Locale.ROOT).startsWith("connection:"));
          response.add("Connection: close");
        }
        toClient.write(head(response));
        toClient.flush();
        if (!interim) {
          break;
        }
      }
      fromUpstream.transferTo(toClient);
      toClient.flush();
    } catch (IOException e) {
      // a connection the client or the stand-in dropped: nothing to forward any more
    }
  }

  private static void pump(InputStream in, OutputStream out) {
    try {
      in.transferTo(out);
    } catch (IOException e) {
      // the exchange ended
    }
  }

  private static void accessDenied(OutputStream out) throws IOException {
    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>"
        + "<Message>Access Denied</Message><RequestId>lake-fault-proxy</RequestId></Error>")
        .getBytes(StandardCharsets.UTF_8);
    out.write(head(List.of("HTTP/1.1 403 Forbidden", "Content-Type: application/xml",
        "Content-Length: " + body.length, "x-amz-request-id: lake-fault-proxy", "Connection: close")));
    out.write(body);
    out.flush();
  }

  /** The request or status line and the header lines, up to the blank line; empty at end of stream. */
  private static List<String> readHead(InputStream in) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return List.of();
      }
      buffer.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String text = buffer.toString(StandardCharsets.ISO_8859_1);
    List<String> lines = new ArrayList<>(List.of(text.substring(0, text.length() - 4).split("\r\n")));
    return lines;
  }

  private static byte[] head(List<String> lines) {
    return (String.join("\r\n", lines) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String header(List<String> head, String name) {
    for (String line : head.subList(1, head.size())) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
        return line.substring(colon + 1).strip();
      }
    }
    return null;
  }

  private static long contentLength(List<String> head) {
    String value = header(head, "content-length");
    return value == null ? 0 : Long.parseLong(value);
  }

  @Override
  public void close() throws IOException, InterruptedException {
    server.close();
    pool.shutdownNow();
    pool.awaitTermination(5, TimeUnit.SECONDS);
  }
}
