package dev.lake.flight.security;

import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;

/**
 * The transport of node-to-node calls (the leader's internal endpoint and the followers' client of it). When the
 * public endpoint serves TLS, so does the internal one, with <b>mutual</b> TLS: it presents the node's
 * {@code server.tls.cert-chain} and accepts only clients whose certificate chains to {@code server.tls.cluster-ca}
 * (a follower then checks the leader's host name against the leader's certificate) or, without one, is the very
 * leaf certificate of {@code server.tls.cert-chain} (every node of the cluster uses the same PEM files: the
 * certificate is pinned, {@link PinnedCertificate}); a follower connects presenting its certificate and trusting the
 * same anchor. Node certificates therefore need both the serverAuth and the clientAuth extended key usage (or no
 * extended key usage at all). Without TLS both sides speak plaintext, as the
 * public port does (loopback, or behind {@code server.allow-plaintext}). Both sides apply the frame limits of
 * {@link GuardSettings}.
 */
public final class InternalTransport {
  private final SecuritySettings security;
  private final GuardSettings guard;
  private final byte[] chain;
  private final byte[] key;
  private final byte[] trusted;
  private final X509Certificate pinned;

  private InternalTransport(SecuritySettings security, GuardSettings guard) {
    this.security = security;
    this.guard = guard;
    if (security.tls()) {
      this.chain = TransportSecurity.read("server.tls.cert-chain", security.certChain().orElseThrow());
      TransportSecurity.certificates("server.tls.cert-chain", security.certChain().orElseThrow(), chain, true);
      this.key = TransportSecurity.read("server.tls.private-key", security.privateKey().orElseThrow());
      TransportSecurity.checkPrivateKey(security.privateKey().orElseThrow(), key);
      if (security.clusterCa().isPresent()) {
        this.trusted = TransportSecurity.read("server.tls.cluster-ca", security.clusterCa().get());
        TransportSecurity.certificates("server.tls.cluster-ca", security.clusterCa().get(), trusted, false);
        this.pinned = null;
      } else {
        this.trusted = null;
        this.pinned = leaf(chain);
      }
    } else {
      this.chain = null;
      this.key = null;
      this.trusted = null;
      this.pinned = null;
    }
  }

  /** @throws IllegalArgumentException for a missing, unreadable or malformed PEM file, saying which and why */
  public static InternalTransport of(SecuritySettings security, GuardSettings guard) {
    return new InternalTransport(security, guard);
  }

  public boolean tls() {
    return security.tls();
  }

  /** Where the internal endpoint binds ({@code grpc+tls} with TLS). */
  public Location location(String host, int port) {
    return tls() ? Location.forGrpcTls(host, port) : Location.forGrpcInsecure(host, port);
  }

  /** Frame limits, and with TLS the node certificate and the client-certificate requirement. */
  public void configure(FlightServer.Builder builder, Consumer<NettyServerBuilder> more) {
    TransportSecurity.limit(builder, guard);
    builder.transportHint("grpc.builderConsumer", more);
    if (!tls()) {
      return;
    }
    try (InputStream c = new ByteArrayInputStream(chain); InputStream k = new ByteArrayInputStream(key)) {
      builder.useTls(c, k);
      if (pinned == null) {
        try (InputStream t = new ByteArrayInputStream(trusted)) {
          builder.useMTlsClientVerification(t);
        }
        return;
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot use the TLS files for the internal endpoint: " + e.getMessage(), e);
    }
    // Same PEMs on every node: require the pinned certificate from clients (Arrow's builder takes a CA file only).
    SslContext ssl;
    try (InputStream c = new ByteArrayInputStream(chain); InputStream k = new ByteArrayInputStream(key)) {
      ssl = GrpcSslContexts.forServer(c, k).trustManager(new PinnedCertificate(pinned))
          .clientAuth(ClientAuth.REQUIRE).build();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot use the TLS files for the internal endpoint: " + e.getMessage(), e);
    }
    Consumer<NettyServerBuilder> netty = b -> {
      more.accept(b);
      b.sslContext(ssl);
    };
    builder.transportHint("grpc.builderConsumer", netty);
  }

  /** A channel to another node's internal endpoint at {@code host}:{@code port}. */
  public ManagedChannel channel(String host, int port) {
    NettyChannelBuilder b = NettyChannelBuilder.forAddress(host, port)
        .keepAliveTime(10, TimeUnit.SECONDS)
        .keepAliveTimeout(5, TimeUnit.SECONDS)
        .maxInboundMessageSize(guard.maxInboundMessageSize())
        .maxInboundMetadataSize(guard.maxHeaderListSize());
    if (!tls()) {
      return b.usePlaintext().build();
    }
    try (InputStream c = new ByteArrayInputStream(chain); InputStream k = new ByteArrayInputStream(key)) {
      SslContextBuilder ssl = GrpcSslContexts.forClient().keyManager(c, k);
      if (pinned != null) {
        ssl.trustManager(new PinnedCertificate(pinned));
      } else {
        try (InputStream t = new ByteArrayInputStream(trusted)) {
          ssl.trustManager(t);
        }
      }
      return b.sslContext(ssl.build()).useTransportSecurity().build();
    } catch (SSLException e) {
      throw new IllegalArgumentException("cannot use the TLS files to reach another node: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The first certificate of a PEM chain. */
  private static X509Certificate leaf(byte[] chainPem) {
    try {
      Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(chainPem));
      return (X509Certificate) certs.iterator().next();
    } catch (CertificateException | ClassCastException e) {
      throw new IllegalArgumentException("server.tls.cert-chain is not a PEM certificate file", e);
    }
  }
}
