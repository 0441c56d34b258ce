package dev.lake.it.support;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Test certificates minted with Bouncy Castle into a directory as PEM files: a CA, a server certificate for
 * {@code localhost} / {@code 127.0.0.1} signed by it (chain file: leaf then CA; key file: PKCS#8), and client
 * certificates whose subject CN is a user name. EC P-256 keys (fast to generate).
 */
public final class TestCertificates {
  private static final SecureRandom RANDOM = new SecureRandom();
  private final Path dir;
  private final KeyPair caKeys;
  private final X509Certificate ca;

  private TestCertificates(Path dir, KeyPair caKeys, X509Certificate ca) {
    this.dir = dir;
    this.caKeys = caKeys;
    this.ca = ca;
  }

  /** A PEM certificate (chain) file and its PKCS#8 key file. */
  public record Pem(Path chain, Path key) {}

  /** Mints a CA named {@code caName} into {@code dir} ({@code <caName>-ca.pem}). */
  public static TestCertificates authority(Path dir, String caName) throws Exception {
    Files.createDirectories(dir);
    KeyPair keys = keyPair();
    X500Name name = new X500Name("CN=" + caName);
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    X509v3CertificateBuilder builder = builder(name, name, keys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
        .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
    X509Certificate ca = sign(builder, keys.getPrivate());
    TestCertificates certs = new TestCertificates(dir, keys, ca);
    Files.writeString(certs.caFile(), pem(ca), StandardCharsets.US_ASCII);
    return certs;
  }

  /** The CA certificate (what clients trust: the JDBC driver's {@code tlsRootCerts}). */
  public Path caFile() {
    return dir.resolve(caName() + "-ca.pem");
  }

  /** A server certificate for localhost and 127.0.0.1: chain file (leaf, then CA) and key. */
  public Pem server(String fileName) throws Exception {
    KeyPair keys = keyPair();
    X509v3CertificateBuilder builder = builder(new X500Name("CN=localhost"), issuer(), keys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
        .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"),
            new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    return write(fileName, sign(builder, caKeys.getPrivate()), keys.getPrivate());
  }

  /** A client certificate whose subject CN is {@code user}. */
  public Pem client(String user) throws Exception {
    return clientWithSubject("client-" + user, "CN=" + user);
  }

  /** A client certificate with the subject {@code subject} as written (e.g. two CNs: {@code CN=a,CN=b}). */
  public Pem clientWithSubject(String fileName, String subject) throws Exception {
    KeyPair keys = keyPair();
    X509v3CertificateBuilder builder = builder(new X500Name(subject), issuer(), keys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
    return write(fileName, sign(builder, caKeys.getPrivate()), keys.getPrivate());
  }

  /**
   * A cluster node's certificate for localhost and 127.0.0.1 usable both to serve and to connect (extended key
   * usage serverAuth and clientAuth): chain file (leaf, then CA) and key.
   */
  public Pem node(String fileName) throws Exception {
    KeyPair keys = keyPair();
    X509v3CertificateBuilder builder = builder(new X500Name("CN=localhost"), issuer(), keys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
            KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
        .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.dNSName, "localhost"),
            new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
    return write(fileName, sign(builder, caKeys.getPrivate()), keys.getPrivate());
  }

  private Pem write(String fileName, X509Certificate leaf, PrivateKey key) throws IOException {
    Path chain = dir.resolve(fileName + "-chain.pem");
    Path keyFile = dir.resolve(fileName + "-key.pem");
    Files.writeString(chain, pem(leaf) + pem(ca), StandardCharsets.US_ASCII);
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(new JcaPKCS8Generator(key, null));
    }
    Files.writeString(keyFile, out.toString(), StandardCharsets.US_ASCII);
    return new Pem(chain, keyFile);
  }

  private String caName() {
    return ca.getSubjectX500Principal().getName().replace("CN=", "");
  }

  private X500Name issuer() {
    return new X500Name(ca.getSubjectX500Principal().getName());
  }

  private static X509v3CertificateBuilder builder(X500Name subject, X500Name issuer, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, RANDOM).abs().add(BigInteger.ONE),
        Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), subject,
        keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey) throws Exception {
    ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey);
    return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
  }

  private static KeyPair keyPair() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return generator.generateKeyPair();
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }
}
