package io.holdfast.xds.server;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * The proxy name a client certificate authenticates: the first URI SAN of the form
 * {@code spiffe://<trust-domain>/proxy/<proxy-name>} gives {@code <proxy-name>} (which may contain {@code /},
 * e.g. {@code spiffe://holdfast.local/proxy/shop/web} is {@code shop/web}); without such a SAN, the subject's
 * common name. A name must be a {@linkplain #valid valid proxy name}, else the certificate names no proxy.
 */
final class ProxyIdentity {

  /**
   * A proxy name is at most this long. Reason: the longest name a Gateway gives its proxies is a Gateway API
   * {@code namespace/name}, 63 + 1 + 253 chars; anything longer cannot match a scope.
   */
  static final int MAX_NAME_LENGTH = 320;
  private static final String SPIFFE = "spiffe://";
  private static final String PROXY_PATH = "/proxy/";
  /** {@link X509Certificate#getSubjectAlternativeNames()}'s tag of a URI name. */
  private static final int URI_NAME = 6;

  private ProxyIdentity() {
  }

  /** The proxy name {@code certificate} authenticates, if any. Never throws. */
  static Optional<String> of(X509Certificate certificate) {
    Optional<String> spiffe = spiffeName(certificate);
    return spiffe.isPresent() ? spiffe : commonName(certificate);
  }

  /** Non-empty, at most {@link #MAX_NAME_LENGTH} chars, no control characters. */
  static boolean valid(String name) {
    return !name.isEmpty() && name.length() <= MAX_NAME_LENGTH && !ClientText.hasControl(name);
  }

  private static Optional<String> spiffeName(X509Certificate certificate) {
    Collection<List<?>> names;
    try {
      names = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return Optional.empty();
    }
    if (names == null) {
      return Optional.empty();
    }
    for (List<?> entry : names) {
      if (entry.size() < 2 || !(entry.get(0) instanceof Integer tag) || tag != URI_NAME
          || !(entry.get(1) instanceof String uri) || !uri.startsWith(SPIFFE)) {
        continue;
      }
      int path = uri.indexOf('/', SPIFFE.length());
      if (path <= SPIFFE.length() || !uri.startsWith(PROXY_PATH, path)) {
        continue; // no trust domain, or a SPIFFE id of something other than a proxy
      }
      String name = uri.substring(path + PROXY_PATH.length());
      if (valid(name)) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> commonName(X509Certificate certificate) {
    try {
      List<Rdn> rdns = new LdapName(certificate.getSubjectX500Principal().getName()).getRdns();
      // LdapName lists RDNs from the last to the first: the most specific CN is the last one found.
      String found = null;
      for (Rdn rdn : rdns) {
        if (rdn.getType().equalsIgnoreCase("CN") && rdn.getValue() instanceof String cn) {
          found = cn;
        }
      }
      return found != null && valid(found) ? Optional.of(found) : Optional.empty();
    } catch (InvalidNameException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
