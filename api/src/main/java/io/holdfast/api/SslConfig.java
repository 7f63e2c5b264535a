package io.holdfast.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a VirtualService is served on an HTTPS Gateway ({@code spec.sslConfig}): its certificate, the TLS server
 * names (SNI) that select it, the lowest TLS version accepted, and optionally the CA that client certificates must
 * chain to. The certificate material itself is not here: it reaches the front end through
 * {@link GatewayConfig#secrets()} under the keys {@link #certificateKeys()} and {@link #clientCaKeys()} name.
 *
 * @param sniDomains empty means: derive them from the VirtualService's domains (see the front end); an explicit
 *                   empty list is {@code Optional.of(List.of())}: the default filter chain
 * @param clientCa   when present, clients must present a certificate that this CA signed
 */
public record SslConfig(CertificateSource certificate, Optional<List<String>> sniDomains, TlsVersion minTlsVersion,
    Optional<CaSource> clientCa) {

  public SslConfig {
    Objects.requireNonNull(certificate, "certificate");
    sniDomains = sniDomains.map(List::copyOf);
    Objects.requireNonNull(minTlsVersion, "minTlsVersion");
    Objects.requireNonNull(clientCa, "clientCa");
  }

  /** The same certificate, version and client CA with other server names. */
  public SslConfig withSniDomains(Optional<List<String>> value) {
    return new SslConfig(certificate, value, minTlsVersion, clientCa);
  }

  /** The lowest TLS version a listener accepts; spelled as Gloo Edge spells it. */
  public enum TlsVersion {
    TLSv1_2, TLSv1_3
  }

  /** Where the certificate chain and private key come from. */
  public sealed interface CertificateSource {

    /**
     * A Kubernetes Secret of type {@code kubernetes.io/tls}: entries {@link TlsSecretData#TLS_CRT} and
     * {@link TlsSecretData#TLS_KEY}.
     */
    record SecretRef(ObjectRef ref) implements CertificateSource {
      public SecretRef {
        Objects.requireNonNull(ref, "ref");
      }
    }

    /** PEM files, paths relative to the config directory (file mode). */
    record Files(String certChain, String privateKey) implements CertificateSource {
      public Files {
        Objects.requireNonNull(certChain, "certChain");
        Objects.requireNonNull(privateKey, "privateKey");
      }
    }

    /**
     * The secret-data keys holding the chain and the key, resolved against the referring object's namespace: one
     * Secret's key, or the chain file's then the key file's.
     */
    default List<ResourceKey> keys(String namespace) {
      if (this instanceof SecretRef secret) {
        return List.of(TlsSecretData.secretKey(secret.ref(), namespace));
      }
      Files files = (Files) this;
      return List.of(TlsSecretData.fileKey(files.certChain()), TlsSecretData.fileKey(files.privateKey()));
    }
  }

  /** Where the client CA comes from. */
  public sealed interface CaSource {

    /** The {@link TlsSecretData#CA_CRT} entry of a Kubernetes Secret. */
    record SecretRef(ObjectRef ref) implements CaSource {
      public SecretRef {
        Objects.requireNonNull(ref, "ref");
      }
    }

    /** A PEM file, path relative to the config directory (file mode). */
    record File(String path) implements CaSource {
      public File {
        Objects.requireNonNull(path, "path");
      }
    }

    /** The secret-data key holding the CA, resolved against the referring object's namespace. */
    default ResourceKey key(String namespace) {
      return this instanceof SecretRef secret ? TlsSecretData.secretKey(secret.ref(), namespace)
          : TlsSecretData.fileKey(((File) this).path());
    }
  }

  /** The secret-data keys holding the certificate and key, resolved against the referring object's namespace. */
  public List<ResourceKey> certificateKeys(String namespace) {
    return certificate.keys(namespace);
  }

  /** The secret-data keys holding the client CA; empty without client validation. */
  public List<ResourceKey> clientCaKeys(String namespace) {
    return clientCa.map(ca -> ca.key(namespace)).stream().toList();
  }
}
