package dev.lake.flight.security;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Hands the subject of a verified client certificate, and the caller's remote address, to the authenticator. Arrow's authenticator sees only the call
 * headers, and gRPC runs Arrow's middleware before any interceptor a server adds; a stream tracer, though, is told
 * about each call (with the connection's TLS session) before any interceptor runs. This one removes whatever a
 * client sent under {@link #HEADER} from every call and, on a TLS connection whose client presented a certificate
 * the handshake verified, puts the certificate's subject CN there. So the header can only ever carry a verified
 * identity; the authenticator consults it only when mutual TLS is configured. A certificate whose subject names
 * more than one CN (or none) is never mapped to a user: {@link #REFUSED_HEADER} says why, and the authenticator
 * refuses the call. The same way, {@link #ADDRESS_HEADER} carries the connection's remote IP address (the failed-login
 * throttle counts per address).
 */
public final class PeerCertificates extends ServerStreamTracer.Factory {
  /** Internal call header carrying the verified client certificate's subject CN. */
  public static final String HEADER = "x-lake-verified-client-cn";
  /** Internal call header: why a verified client certificate names no user (two or more CNs, or none). */
  public static final String REFUSED_HEADER = "x-lake-client-certificate-refused";
  /** Internal call header carrying the connection's remote IP address. */
  public static final String ADDRESS_HEADER = "x-lake-remote-address";
  private static final Metadata.Key<String> KEY = Metadata.Key.of(HEADER, Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> REFUSED = Metadata.Key.of(REFUSED_HEADER,
      Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> ADDRESS = Metadata.Key.of(ADDRESS_HEADER,
      Metadata.ASCII_STRING_MARSHALLER);

  @Override
  public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
    scrub(headers);
    return new ServerStreamTracer() {
      @Override
      public void serverCallStarted(ServerCallInfo<?, ?> info) {
        scrub(headers);
        if (info.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR) instanceof InetSocketAddress remote
            && remote.getAddress() != null) {
          headers.put(ADDRESS, remote.getAddress().getHostAddress());
        }
        SSLSession session = info.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        try {
          commonName(session).ifPresent(cn -> headers.put(KEY, cn));
        } catch (AmbiguousSubjectException e) {
          headers.put(REFUSED, e.getMessage());
        }
      }
    };
  }

  private static void scrub(Metadata headers) {
    headers.removeAll(KEY);
    headers.removeAll(REFUSED);
    headers.removeAll(ADDRESS);
  }

  /** A verified certificate whose subject does not name exactly one CN. */
  static final class AmbiguousSubjectException extends RuntimeException {
    AmbiguousSubjectException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The subject CN of the verified client certificate of {@code session}; empty without one.
   *
   * @throws AmbiguousSubjectException when the certificate's subject has two or more CN attributes
   */
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
    List<String> names = new ArrayList<>();
    try {
      for (Rdn rdn : new LdapName(leaf.getSubjectX500Principal().getName()).getRdns()) {
        // A multi-valued RDN (CN=a+CN=b) holds several attributes: count every CN value, never take the first.
        NamingEnumeration<? extends Attribute> attributes = rdn.toAttributes().getAll();
        while (attributes.hasMore()) {
          Attribute a = attributes.next();
          if ("CN".equalsIgnoreCase(a.getID())) {
            for (int i = 0; i < a.size(); i++) {
              names.add(String.valueOf(a.get(i)));
            }
          }
        }
      }
    } catch (NamingException e) {
      throw new AmbiguousSubjectException("the client certificate's subject cannot be parsed");
    }
    if (names.size() > 1) {
      throw new AmbiguousSubjectException("the client certificate's subject names " + names.size()
          + " CNs; a certificate that logs in must name exactly one user");
    }
    if (names.isEmpty()) {
      return Optional.empty();
    }
    String cn = names.get(0);
    // ASCII only (a header value); anything else names no configured user anyway.
    return cn.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? Optional.of(cn) : Optional.empty();
  }
}
