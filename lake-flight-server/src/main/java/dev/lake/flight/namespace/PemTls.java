package dev.lake.flight.namespace;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An {@link SSLContext} from the Flight endpoint's PEM files ({@code server.tls.cert-chain}, an unencrypted PKCS#8
 * {@code server.tls.private-key}), so the namespace serves HTTPS with the same certificate. The files were checked
 * when the Flight endpoint was configured.
 */
final class PemTls {
  private PemTls() {}

  static SSLContext context(Path certChain, Path privateKey) {
    try {
      Collection<? extends Certificate> chain = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(certChain)));
      PrivateKey key = privateKey(Files.readString(privateKey, StandardCharsets.US_ASCII));
      char[] password = new char[0];
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("lake", key, password, chain.toArray(new Certificate[0]));
      KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), null, null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot serve the namespace over TLS with server.tls.cert-chain and "
          + "server.tls.private-key: " + e.getMessage(), e);
    }
  }

  private static PrivateKey privateKey(String pem) throws GeneralSecurityException {
    String begin = "-----BEGIN PRIVATE KEY-----";
    int start = pem.indexOf(begin);
    int end = pem.indexOf("-----END PRIVATE KEY-----");
    if (start < 0 || end < start) {
      throw new GeneralSecurityException("the private key is not a PKCS#8 PEM key");
    }
    byte[] der = Base64.getMimeDecoder().decode(pem.substring(start + begin.length(), end));
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    GeneralSecurityException last = null;
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw last;
  }
}
