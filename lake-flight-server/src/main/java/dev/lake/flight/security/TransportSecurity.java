package dev.lake.flight.security;

import io.grpc.netty.NettyServerBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link SecuritySettings} to the Flight server: TLS from PEM files, mutual TLS, the peer-certificate
 * tracer, and the rule that plaintext is served only on loopback addresses unless {@code server.allow-plaintext}.
 * Every check runs before anything binds, and says what to configure.
 */
public final class TransportSecurity {
  private static final Logger LOG = LoggerFactory.getLogger(TransportSecurity.class);

  private TransportSecurity() {}

  /**
   * Refuses plaintext on an address other hosts can reach (a wildcard or a non-loopback address) unless TLS is
   * configured or {@code server.allow-plaintext} is true.
   *
   * @throws IllegalArgumentException saying how to serve TLS or allow plaintext
   */
  public static void checkListenAddress(String host, SecuritySettings settings) {
    if (settings.tls() || settings.allowPlaintext()) {
      return;
    }
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(host);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("server.host '" + host + "' does not resolve");
    }
    for (InetAddress a : addresses) {
      if (!a.isLoopbackAddress()) {
        throw new IllegalArgumentException("refusing to serve plaintext on " + host + " (" + a.getHostAddress()
            + "), which is not a loopback address: configure TLS (server.tls.cert-chain and server.tls.private-key, "
            + "PEM files), or set server.allow-plaintext: true if a TLS-terminating proxy sits in front, or bind "
            + "127.0.0.1");
      }
    }
  }

  /** The location the server binds: {@code grpc+tls} when TLS is configured, else {@code grpc+tcp}. */
  public static Location location(String host, int port, SecuritySettings settings) {
    return settings.tls() ? Location.forGrpcTls(host, port) : Location.forGrpcInsecure(host, port);
  }

  /**
   * Configures TLS (and mutual TLS) on {@code builder} from the PEM files, after checking them, and installs the
   * peer-certificate tracer ({@link PeerCertificates}). Uses the {@code grpc.builderConsumer} transport hint.
   *
   * @throws IllegalArgumentException for a missing, unreadable or malformed PEM file, saying which and why
   */
  public static void configure(FlightServer.Builder builder, SecuritySettings settings) {
    configure(builder, settings, b -> { });
  }

  /** As above; {@code more} is applied to the gRPC server builder too (the transport hint holds one consumer). */
  public static void configure(FlightServer.Builder builder, SecuritySettings settings,
      Consumer<NettyServerBuilder> more) {
    Consumer<NettyServerBuilder> netty = b -> {
      b.addStreamTracerFactory(new PeerCertificates());
      more.accept(b);
    };
    builder.transportHint("grpc.builderConsumer", netty);
    if (!settings.tls()) {
      return;
    }
    byte[] chain = read("server.tls.cert-chain", settings.certChain().orElseThrow());
    certificates("server.tls.cert-chain", settings.certChain().orElseThrow(), chain, true);
    byte[] key = read("server.tls.private-key", settings.privateKey().orElseThrow());
    checkPrivateKey(settings.privateKey().orElseThrow(), key);
    try (InputStream c = new ByteArrayInputStream(chain); InputStream k = new ByteArrayInputStream(key)) {
      builder.useTls(c, k);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot use the TLS files: " + e.getMessage(), e);
    }
    if (settings.mutualTls()) {
      byte[] ca = read("server.tls.client-ca", settings.clientCa().orElseThrow());
      certificates("server.tls.client-ca", settings.clientCa().orElseThrow(), ca, false);
      try (InputStream in = new ByteArrayInputStream(ca)) {
        builder.useMTlsClientVerification(in);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot use server.tls.client-ca: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Applies the frame limits of {@code guard} to a Flight endpoint (the public one and the internal one): a header
   * block over {@code server.max-header-list-size} closes the connection as its frames arrive, a message over
   * {@code server.max-inbound-message-size} is refused when its length prefix is read; neither reaches lake's code.
   */
  public static void limit(FlightServer.Builder builder, GuardSettings guard) {
    builder.setMaxHeaderListSize(guard.maxHeaderListSize());
    builder.maxInboundMessageSize(guard.maxInboundMessageSize());
  }

  static byte[] read(String key, Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(key + " = " + file + " cannot be read: " + e.getMessage(), e);
    }
  }

  static void certificates(String key, Path file, byte[] pem, boolean leafFirst) {
    Collection<? extends java.security.cert.Certificate> certs;
    try {
      certs = CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
    } catch (CertificateException e) {
      throw new IllegalArgumentException(key + " = " + file + " is not a PEM certificate file: " + e.getMessage(), e);
    }
    if (certs.isEmpty()) {
      throw new IllegalArgumentException(key + " = " + file + " holds no certificate (expected '-----BEGIN "
          + "CERTIFICATE-----' blocks" + (leafFirst ? ", the server's certificate first" : "") + ")");
    }
    for (java.security.cert.Certificate c : certs) {
      if (c instanceof X509Certificate x) {
        try {
          x.checkValidity();
        } catch (CertificateException e) {
          LOG.warn("certificate not valid now key={} file={} subject={} notBefore={} notAfter={}", key, file,
              x.getSubjectX500Principal().getName(), x.getNotBefore().toInstant(), x.getNotAfter().toInstant());
        }
      }
    }
  }

  static void checkPrivateKey(Path file, byte[] pem) {
    String text = new String(pem, StandardCharsets.US_ASCII);
    if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
      throw new IllegalArgumentException("server.tls.private-key = " + file + " is encrypted; lake needs an "
          + "unencrypted PKCS#8 key (protect the file with its permissions): openssl pkcs8 -topk8 -nocrypt");
    }
    if (text.contains("-----BEGIN RSA PRIVATE KEY-----") || text.contains("-----BEGIN EC PRIVATE KEY-----")) {
      throw new IllegalArgumentException("server.tls.private-key = " + file + " is a PKCS#1/SEC1 key; lake needs "
          + "PKCS#8 ('-----BEGIN PRIVATE KEY-----'): convert it with openssl pkcs8 -topk8 -nocrypt -in " + file);
    }
    if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
      throw new IllegalArgumentException("server.tls.private-key = " + file + " is not a PEM private key "
          + "(expected '-----BEGIN PRIVATE KEY-----', PKCS#8)");
    }
  }
}
