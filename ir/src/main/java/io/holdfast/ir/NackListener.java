package io.holdfast.ir;

/**
 * Told about every proxy NACK once (a repeated NACK of the same response is not reported again).
 *
 * <p>Called on the gRPC thread that received the NACK: implementations must be quick, thread-safe and must not
 * block. Exceptions are logged and swallowed.
 */
@FunctionalInterface
public interface NackListener {

  /** A listener that ignores every event. */
  NackListener NONE = event -> { };

  void onNack(NackEvent event);
}
