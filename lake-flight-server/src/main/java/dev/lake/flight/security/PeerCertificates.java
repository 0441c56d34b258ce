package dev.lake.flight.security;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Hands the subject of a verified client certificate to the authenticator. Arrow's authenticator sees only the call
 * headers, and gRPC runs Arrow's middleware before any interceptor a server adds; a stream tracer, though, is told
 * about each call (with the connection's TLS session) before any interceptor runs. This one removes whatever a
 * client sent under {@link #HEADER} from every call and, on a TLS connection whose client presented a certificate
 * the handshake verified, puts the certificate's subject CN there. So the header can only ever carry a verified
 * identity; the authenticator consults it only when mutual TLS is configured.
 */
public final class PeerCertificates extends ServerStreamTracer.Factory {
  /** Internal call header carrying the verified client certificate's subject CN. */
  public static final String HEADER = "x-lake-verified-client-cn";
  private static final Metadata.Key<String> KEY = Metadata.Key.of(HEADER, Metadata.ASCII_STRING_MARSHALLER);

  @Override
  public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
    headers.removeAll(KEY);
    return new ServerStreamTracer() {
      @Override
      public void serverCallStarted(ServerCallInfo<?, ?> info) {
        headers.removeAll(KEY);
        SSLSession session = info.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        commonName(session).ifPresent(cn -> headers.put(KEY, cn));
      }
    };
  }

  static Optional<String> commonName(SSLSession session) {
    if (session == null) {
      return Optional.empty();
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      return Optional.empty();
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      return Optional.empty();
    }
    try {
      for (Rdn rdn : new LdapName(leaf.getSubjectX500Principal().getName()).getRdns()) {
        if ("CN".equalsIgnoreCase(rdn.getType())) {
          String cn = rdn.getValue().toString();
          // ASCII only (a header value); anything else names no configured user anyway.
          return cn.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? Optional.of(cn) : Optional.empty();
        }
      }
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}
