package dev.lake.flight.security;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts exactly one certificate: a peer is accepted when the first certificate it presents is that certificate
 * (and valid now), whatever signed it. Used between the nodes of a cluster that all use the same PEM files
 * ({@link InternalTransport}); the pin identifies the peer, so host names are not checked. Advertises no acceptable
 * issuers, so a client presents its certificate whoever issued it.
 */
final class PinnedCertificate extends X509ExtendedTrustManager {
  private final X509Certificate pinned;

  PinnedCertificate(X509Certificate pinned) {
    this.pinned = pinned;
  }

  private void check(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0 || !pinned.equals(chain[0])) {
      throw new CertificateException("the peer is not a node of this cluster: its certificate is not the one in "
          + "server.tls.cert-chain (set server.tls.cluster-ca when nodes have certificates of their own)");
    }
    chain[0].checkValidity();
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
