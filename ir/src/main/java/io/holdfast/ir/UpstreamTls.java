package io.holdfast.ir;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS from the proxy to a cluster's endpoints.
 *
 * @param sni               the server name sent; with {@link Verify#SYSTEM_CAS} (and {@link Verify#TRUSTED_CA} when
 *                          present) also the DNS name the certificate must carry
 * @param verify            how the endpoints' certificates are checked
 * @param trustedCa         with {@link Verify#TRUSTED_CA} only: the {@link Secret} (a trusted CA) the endpoints'
 *                          certificates must chain to
 * @param clientCertificate the {@link Secret} (certificate and key) the proxy presents to the endpoints; absent for
 *                          none
 * @param alpnProtocols     the protocols offered by ALPN, in order; empty: h2 for an HTTP/2 cluster, else none
 * @param sds               an SDS agent beside the proxy that serves the client certificate and (with
 *                          {@link Verify#TRUSTED_CA}) the validation context, instead of {@code clientCertificate} and
 *                          {@code trustedCa}; absent for none
 */
public record UpstreamTls(Optional<String> sni, Verify verify, Optional<String> trustedCa,
    Optional<String> clientCertificate, List<String> subjectAltNames, List<String> alpnProtocols,
    Optional<Sds> sds) {

  public UpstreamTls {
    Objects.requireNonNull(sni, "sni");
    Objects.requireNonNull(verify, "verify");
    Objects.requireNonNull(trustedCa, "trustedCa");
    Objects.requireNonNull(clientCertificate, "clientCertificate");
    subjectAltNames = List.copyOf(subjectAltNames);
    alpnProtocols = List.copyOf(alpnProtocols);
    alpnProtocols.stream().filter(p -> p.isEmpty() || p.length() > 255).findFirst().ifPresent(p -> {
      throw new IllegalArgumentException("an ALPN protocol must be 1-255 characters, got " + p.length());
    });
    if (verify == Verify.NONE && !subjectAltNames.isEmpty()) {
      throw new IllegalArgumentException("subject alternative names are checked only with a verified chain");
    }
    if (verify == Verify.SYSTEM_CAS && sni.isEmpty() && subjectAltNames.isEmpty()) {
      throw new IllegalArgumentException("upstream TLS checked against the system CAs needs an sni to check the"
          + " certificate's name against");
    }
    Objects.requireNonNull(sds, "sds");
    boolean sdsCa = sds.flatMap(Sds::validationContextName).isPresent();
    if (sdsCa && trustedCa.isPresent() || sds.flatMap(Sds::certificateSecretName).isPresent()
        && clientCertificate.isPresent()) {
      throw new IllegalArgumentException("SDS agent secrets replace the trusted CA and client certificate");
    }
    if ((verify == Verify.TRUSTED_CA) != (trustedCa.isPresent() || sdsCa)) {
      throw new IllegalArgumentException("a trusted CA secret goes with verify TRUSTED_CA and only with it; got "
          + verify + (trustedCa.isPresent() || sdsCa ? " and a trusted CA" : " and no trusted CA"));
    }
    sni.filter(name -> name.isEmpty() || name.length() > 255).ifPresent(name -> {
      throw new IllegalArgumentException("sni must be 1-255 characters, got " + name.length());
    });
  }

  /** Without an SDS agent. */
  public UpstreamTls(Optional<String> sni, Verify verify, Optional<String> trustedCa,
      Optional<String> clientCertificate, List<String> subjectAltNames, List<String> alpnProtocols) {
    this(sni, verify, trustedCa, clientCertificate, subjectAltNames, alpnProtocols, Optional.empty());
  }

  /** Offering no ALPN protocols of its own. */
  public UpstreamTls(Optional<String> sni, Verify verify, Optional<String> trustedCa,
      Optional<String> clientCertificate, List<String> subjectAltNames) {
    this(sni, verify, trustedCa, clientCertificate, subjectAltNames, List.of());
  }

  public UpstreamTls withAlpnProtocols(List<String> value) {
    return new UpstreamTls(sni, verify, trustedCa, clientCertificate, subjectAltNames, value, sds);
  }

  public UpstreamTls withSds(Optional<Sds> value) {
    return new UpstreamTls(sni, verify, trustedCa, clientCertificate, subjectAltNames, alpnProtocols, value);
  }

  /** Checking the SNI (if any) as the certificate's name. */
  public UpstreamTls(Optional<String> sni, Verify verify, Optional<String> trustedCa,
      Optional<String> clientCertificate) {
    this(sni, verify, trustedCa, clientCertificate, List.of());
  }

  /** Without a trusted CA of its own or a client certificate. */
  public UpstreamTls(Optional<String> sni, Verify verify) {
    this(sni, verify, Optional.empty(), Optional.empty());
  }

  /**
   * An SDS agent in the proxy's network namespace (Istio's, for one), reached over gRPC at a loopback IP.
   *
   * @param ip                    a loopback IP literal (IPv6 without brackets)
   * @param port                  1-65535
   * @param certificateSecretName the agent's name of the client certificate; absent for none
   * @param validationContextName the agent's name of the validation context; absent for none
   */
  public record Sds(String ip, int port, Optional<String> certificateSecretName,
      Optional<String> validationContextName) {
    public Sds {
      Objects.requireNonNull(ip, "ip");
      Objects.requireNonNull(certificateSecretName, "certificateSecretName");
      Objects.requireNonNull(validationContextName, "validationContextName");
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("SDS agent port out of range: " + port);
      }
      if (certificateSecretName.isEmpty() && validationContextName.isEmpty()) {
        throw new IllegalArgumentException("an SDS agent serves at least one secret");
      }
    }
  }

  /**
   * SYSTEM_CAS: chain to the proxy's system trust store and DNS name equal to the SNI; TRUSTED_CA: chain to
   * {@code trustedCa}, and DNS name equal to the SNI if there is one; NONE: no check.
   */
  public enum Verify {
    SYSTEM_CAS, TRUSTED_CA, NONE
  }
}
