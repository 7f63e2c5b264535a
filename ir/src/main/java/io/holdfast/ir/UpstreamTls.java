package io.holdfast.ir;

import java.util.Objects;
import java.util.Optional;

/**
 * TLS from the proxy to a cluster's endpoints.
 *
 * @param sni    the server name sent; with {@link Verify#SYSTEM_CAS} also the DNS name the certificate must carry
 * @param verify how the endpoints' certificates are checked
 */
public record UpstreamTls(Optional<String> sni, Verify verify) {

  public UpstreamTls {
    Objects.requireNonNull(sni, "sni");
    Objects.requireNonNull(verify, "verify");
    if (verify == Verify.SYSTEM_CAS && sni.isEmpty()) {
      throw new IllegalArgumentException("upstream TLS checked against the system CAs needs an sni to check the"
          + " certificate's name against");
    }
    sni.filter(name -> name.isEmpty() || name.length() > 255).ifPresent(name -> {
      throw new IllegalArgumentException("sni must be 1-255 characters, got " + name.length());
    });
  }

  /** SYSTEM_CAS: chain to the proxy's system trust store and DNS name equal to the SNI; NONE: no check. */
  public enum Verify {
    SYSTEM_CAS, NONE
  }
}
