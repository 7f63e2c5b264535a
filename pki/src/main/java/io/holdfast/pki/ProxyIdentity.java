package io.holdfast.pki;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity a proxy proves with its xDS client certificate: the SPIFFE ID
 * {@code spiffe://<trust-domain>/proxy/<proxy-name>} (a URI SAN) and, for tools that only read the subject, the
 * proxy name as the common name. A Holdfast {@code Gateway} names the proxies it is for in {@code spec.proxyNames};
 * a Gateway API Gateway's proxy is {@code <namespace>/<name>}.
 *
 * <p>Names are checked against the SPIFFE ID rules (no percent-encoding, so only the characters below), because
 * a certificate whose URI SAN is not a valid SPIFFE ID would be refused by SPIFFE-aware peers, or read
 * differently by them.
 */
public record ProxyIdentity(String trustDomain, String proxyName) {

  public static final String DEFAULT_TRUST_DOMAIN = "holdfast.local";
  /** The path segment that marks a proxy identity, before its name. */
  public static final String PATH_PREFIX = "/proxy/";
  /** A Kubernetes object name's bound (DNS subdomain): longer names cannot be the ones Gateways list. */
  public static final int MAX_PROXY_NAME_LENGTH = 253;
  /** The SPIFFE standard's bound on a trust domain name. */
  public static final int MAX_TRUST_DOMAIN_LENGTH = 255;

  private static final Pattern TRUST_DOMAIN = Pattern.compile("[a-z0-9._-]+");
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

  /** @throws IllegalArgumentException naming the rule the trust domain or the proxy name breaks */
  public ProxyIdentity {
    Objects.requireNonNull(trustDomain, "trustDomain");
    Objects.requireNonNull(proxyName, "proxyName");
    checkTrustDomain(trustDomain);
    checkProxyName(proxyName);
  }

  public static ProxyIdentity of(String proxyName) {
    return new ProxyIdentity(DEFAULT_TRUST_DOMAIN, proxyName);
  }

  /** {@code spiffe://<trust-domain>/proxy/<proxy-name>}. */
  public URI spiffeId() {
    return URI.create("spiffe://" + trustDomain + PATH_PREFIX + proxyName);
  }

  /**
   * @throws IllegalArgumentException if {@code trustDomain} is empty, longer than {@value #MAX_TRUST_DOMAIN_LENGTH},
   *     or has characters other than lower-case letters, digits, '.', '-' and '_'
   */
  public static void checkTrustDomain(String trustDomain) {
    if (trustDomain.isEmpty()) {
      throw new IllegalArgumentException("trust domain is empty");
    }
    if (trustDomain.length() > MAX_TRUST_DOMAIN_LENGTH) {
      throw new IllegalArgumentException("trust domain is " + trustDomain.length() + " characters long, over "
          + MAX_TRUST_DOMAIN_LENGTH);
    }
    if (!TRUST_DOMAIN.matcher(trustDomain).matches()) {
      throw new IllegalArgumentException("trust domain '" + printable(trustDomain) + "' may only have lower-case"
          + " letters, digits, '.', '-' and '_' (SPIFFE ID rules)");
    }
  }

  /**
   * @throws IllegalArgumentException if {@code proxyName} is empty, longer than {@value #MAX_PROXY_NAME_LENGTH},
   *     has a control character, or is not a SPIFFE path: segments of letters, digits, '.', '-' and '_' separated
   *     by single '/', none of them '.' or '..'
   */
  public static void checkProxyName(String proxyName) {
    if (proxyName.isEmpty()) {
      throw new IllegalArgumentException("proxy name is empty");
    }
    if (proxyName.length() > MAX_PROXY_NAME_LENGTH) {
      throw new IllegalArgumentException("proxy name is " + proxyName.length() + " characters long, over "
          + MAX_PROXY_NAME_LENGTH);
    }
    if (proxyName.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("proxy name '" + printable(proxyName) + "' has a control character");
    }
    for (String segment : proxyName.split("/", -1)) {
      if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("proxy name '" + printable(proxyName) + "' is not a SPIFFE ID path:"
            + " use letters, digits, '.', '-' and '_', with '/' only between non-empty parts other than '.' and"
            + " '..' (e.g. gateway-proxy, or namespace/name)");
      }
    }
  }

  /** The text with control characters shown as '?', so a message quoting it cannot forge lines. */
  private static String printable(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return out.toString();
  }
}
