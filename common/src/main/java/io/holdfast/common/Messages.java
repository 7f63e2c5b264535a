package io.holdfast.common;

/** Bounds on the messages Holdfast writes about user input. Pure. */
public final class Messages {

  /**
   * The longest message kept: messages quote the values they are about, and a hostile value (a 2 MB domain) must
   * not turn into megabytes of status, log line and validate output.
   */
  public static final int MAX_LENGTH = 2048;

  private Messages() {
  }

  /** {@code message}, cut to {@link #MAX_LENGTH} characters with a note of how long it was. */
  public static String cut(String message) {
    return message.length() <= MAX_LENGTH ? message
        : message.substring(0, MAX_LENGTH) + "... (message cut, " + message.length() + " characters)";
  }
}
