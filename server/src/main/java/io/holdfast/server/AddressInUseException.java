package io.holdfast.server;

import java.io.IOException;
import java.net.BindException;
import java.util.Locale;
import java.util.Objects;

/**
 * A listener could not bind because its address and port are taken. Names the flag that chose them, so the
 * command line can say in one line what to change: {@code --admin-address 127.0.0.1:9091 is in use}.
 */
public final class AddressInUseException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String flag;
  private final String address;
  private final int port;

  /**
   * @param flag    the option that sets the address, e.g. {@code --admin-address}
   * @param address as given (a host name or an IP literal)
   */
  public AddressInUseException(String flag, String address, int port, Throwable cause) {
    super(flag + " " + hostPort(address, port) + " is in use", cause);
    this.flag = Objects.requireNonNull(flag, "flag");
    this.address = Objects.requireNonNull(address, "address");
    this.port = port;
  }

  public String flag() {
    return flag;
  }

  public String address() {
    return address;
  }

  public int port() {
    return port;
  }

  /**
   * Whether {@code e} (or a cause of it) is a bind that failed because the address is taken: the JDK's
   * {@link BindException}, or the native transport's error of the same errno, which is not one. The cause chain is
   * walked to a bounded depth, as a hostile cycle must not loop.
   */
  public static boolean isAddressInUse(Throwable e) {
    Throwable t = e;
    for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof BindException || message.contains("address already in use")) {
        return true;
      }
    }
    return false;
  }

  private static String hostPort(String address, int port) {
    return (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
  }
}
