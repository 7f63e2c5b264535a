package io.holdfast.xds.server;

/**
 * Told when a proxy's last open stream closes, with what it had told this server (its ACKed versions and its last
 * NACK), so a proxy that NACKed and went away is an event rather than a row that vanishes. Called on the thread that
 * closed the stream (a Netty event loop): keep it quick; what it throws is logged and dropped.
 */
@FunctionalInterface
public interface DisconnectListener {
  DisconnectListener NONE = last -> { };

  void onDisconnected(ProxyStatus last);
}
