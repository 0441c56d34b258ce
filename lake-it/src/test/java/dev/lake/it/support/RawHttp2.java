package dev.lake.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A hostile HTTP/2 client written by hand: it sends one gRPC request whose header block is as large as asked, in
 * a HEADERS frame followed by CONTINUATION frames of 16 KiB, ignoring whatever limit the server advertises (a gRPC
 * client would refuse to send it). No credentials. Used to show a server refuses oversized headers before any work.
 */
public final class RawHttp2 {
  private static final int FRAME = 16_384;

  private RawHttp2() {}

  /** What happened to one oversized request. */
  public record Outcome(long bytesSent, boolean closedByServer, long millis) {}

  /**
   * Sends a request to {@code path} with about {@code headerBytes} of headers; stops when the server closes the
   * connection (or after everything was sent and {@code readTimeoutMillis} passed without an answer).
   */
  public static Outcome oversizedHeaders(int port, String path, int headerBytes, int readTimeoutMillis)
      throws IOException {
    byte[] block = headerBlock(path, headerBytes);
    long start = System.nanoTime();
    long sent = 0;
    boolean closed = false;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(readTimeoutMillis);
      socket.setSendBufferSize(64 * 1024);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      Thread reader = new Thread(() -> drain(in), "raw-http2-reader");
      reader.setDaemon(true);
      reader.start();
      try {
        out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        frame(out, 0x4, 0, 0, new byte[0], 0, 0); // SETTINGS
        for (int off = 0; off < block.length; off += FRAME) {
          int len = Math.min(FRAME, block.length - off);
          boolean last = off + len >= block.length;
          int type = off == 0 ? 0x1 : 0x9; // HEADERS, then CONTINUATION
          frame(out, type, last ? 0x4 : 0, 1, block, off, len);
          sent += len;
        }
        out.flush();
      } catch (IOException e) {
        closed = true; // the server closed the connection while we were still sending
      }
      try {
        reader.join(readTimeoutMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      closed |= !reader.isAlive();
    }
    return new Outcome(sent, closed, (System.nanoTime() - start) / 1_000_000);
  }

  private static void drain(InputStream in) {
    byte[] buf = new byte[8192];
    try {
      while (in.read(buf) >= 0) {
        // discard SETTINGS, GOAWAY, RST_STREAM
      }
    } catch (IOException e) {
      // closed or timed out
    }
  }

  private static void frame(OutputStream out, int type, int flags, int stream, byte[] payload, int off, int len)
      throws IOException {
    byte[] header = {(byte) (len >>> 16), (byte) (len >>> 8), (byte) len, (byte) type, (byte) flags,
        (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8), (byte) stream};
    out.write(header);
    out.write(payload, off, len);
  }

  private static byte[] headerBlock(String path, int headerBytes) {
    ByteArrayOutputStream block = new ByteArrayOutputStream(headerBytes + 1024);
    literal(block, ":method", "POST");
    literal(block, ":scheme", "http");
    literal(block, ":path", path);
    literal(block, ":authority", "127.0.0.1");
    literal(block, "content-type", "application/grpc");
    literal(block, "te", "trailers");
    String value = "a".repeat(4000);
    for (int i = 0; block.size() < headerBytes; i++) {
      literal(block, "x-pad-" + i, value);
    }
    return block.toByteArray();
  }

  /** HPACK literal header field without indexing, new name, no Huffman coding. */
  private static void literal(ByteArrayOutputStream out, String name, String value) {
    out.write(0x00);
    string(out, name.getBytes(StandardCharsets.US_ASCII));
    string(out, value.getBytes(StandardCharsets.US_ASCII));
  }

  private static void string(ByteArrayOutputStream out, byte[] bytes) {
    int n = bytes.length;
    if (n < 127) {
      out.write(n);
    } else {
      out.write(127);
      n -= 127;
      while (n >= 128) {
        out.write((n & 0x7f) | 0x80);
        n >>>= 7;
      }
      out.write(n);
    }
    out.write(bytes, 0, bytes.length);
  }
}
