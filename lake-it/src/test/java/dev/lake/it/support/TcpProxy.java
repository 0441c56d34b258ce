package dev.lake.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP relay in front of one port, for cutting a connection between two nodes at a chosen moment:
 * {@link #cutAll()} resets every relayed connection (new ones are still accepted); {@link #freeze()} stops relaying
 * bytes in both directions while keeping every connection open (what a peer paused with SIGSTOP looks like: its
 * kernel accepts and buffers, the process answers nothing) until {@link #thaw()}. Stopped by {@link #close()}.
 */
public final class TcpProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();
  private final Thread acceptor;
  private volatile boolean frozen;

  private TcpProxy(ServerSocket server, int targetPort) {
    this.server = server;
    this.targetPort = targetPort;
    this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Relays 127.0.0.1:{@link #port()} to 127.0.0.1:{@code targetPort}. */
  public static TcpProxy start(int targetPort) throws IOException {
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    return new TcpProxy(server, targetPort);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Connections relayed so far. */
  public int accepted() {
    return accepted.get();
  }

  /** Resets every relayed connection now (both sides see the connection break). */
  public void cutAll() {
    for (Socket s : sockets) {
      try {
        s.setSoLinger(true, 0); // RST instead of FIN
        s.close();
      } catch (IOException e) {
        // already gone
      }
    }
    sockets.clear();
  }

  /** Stops relaying bytes (both directions, existing and new connections) until {@link #thaw()}. */
  public void freeze() {
    frozen = true;
  }

  public void thaw() {
    frozen = false;
  }

  /** Waits while frozen (bounded: a test that never thaws does not leave threads behind forever). */
  private void awaitThawed() throws IOException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(300);
    while (frozen && !server.isClosed()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("frozen for too long");
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while frozen");
      }
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5000);
        sockets.add(client);
        sockets.add(upstream);
        accepted.incrementAndGet();
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        if (server.isClosed()) {
          return;
        }
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[64 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          awaitThawed();
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // cut or closed
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "tcp-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // ignore
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    cutAll();
  }
}
