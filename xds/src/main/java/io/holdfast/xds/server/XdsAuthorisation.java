package io.holdfast.xds.server;

import java.util.Locale;

/**
 * What an xDS stream may see. {@link #NONE}: every stream is served the whole snapshot (the only mode without
 * client certificates; meant for plaintext on loopback in development). {@link #PROXY_IDENTITY}: a stream is
 * served only the scope of the proxy its TLS client certificate names ({@link ProxyIdentity}); a stream without
 * a usable identity is refused.
 */
public enum XdsAuthorisation {
  NONE("none"),
  PROXY_IDENTITY("proxy-identity");

  private final String flagValue;

  XdsAuthorisation(String flagValue) {
    this.flagValue = flagValue;
  }

  /** The spelling on the command line, e.g. {@code proxy-identity}. */
  public String flagValue() {
    return flagValue;
  }

  /**
   * The mode spelled {@code value} ({@code none} or {@code proxy-identity}, any case).
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static XdsAuthorisation parse(String value) {
    String wanted = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    for (XdsAuthorisation mode : values()) {
      if (mode.flagValue.equals(wanted)) {
        return mode;
      }
    }
    throw new IllegalArgumentException("xDS authorisation must be none or proxy-identity, was \"" + value + "\"");
  }
}
