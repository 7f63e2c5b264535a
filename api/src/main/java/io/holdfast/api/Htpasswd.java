package io.holdfast.api;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The users of an htpasswd text as Envoy's {@code basic_auth} filter reads them: one {@code user:hash} per line,
 * empty lines and lines starting with {@code #} skipped, and only {@code {SHA}} hashes (the base64 of a SHA-1
 * digest, {@code htpasswd -s}). A text Envoy would refuse is refused here with a named reason naming the line, so
 * the listener holding it is never NACKed; the names and hashes themselves are never quoted (a message lands in
 * statuses and logs). A trailing CR (a file written on Windows) is dropped, as Envoy would count it into the hash.
 * {@link #render()} gives the normalised text sent to Envoy. {@code toString} shows the number of users only.
 */
public final class Htpasswd {

  /** The htpasswd size accepted: the users sit inline in every listener serving them. */
  public static final int MAX_CHARS = 65536;
  /** Users per htpasswd: each is held by every proxy serving the route. */
  public static final int MAX_USERS = 1024;

  public static final String UNSUPPORTED_HASH_FORMAT = "UnsupportedHashFormat";
  public static final String INVALID_HTPASSWD = "InvalidHtpasswd";
  public static final String EMPTY_USERS = "EmptyUsers";

  private static final String SHA_PREFIX = "{SHA}";
  /** The base64 of a 20-byte SHA-1 digest. */
  private static final int SHA_BASE64_CHARS = 28;

  private final List<String> lines;

  private Htpasswd(List<String> lines) {
    this.lines = List.copyOf(lines);
  }

  /** Why a text is refused: a named reason and a message naming the line, never its content. */
  public record Refusal(String reason, String message) {
    public Refusal {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }

  /** The users of {@code text}, or why Envoy would refuse it. Linear in the text, bounded by {@link #MAX_CHARS}. */
  public static Result parse(String text) {
    if (text.length() > MAX_CHARS) {
      return refused(INVALID_HTPASSWD, "the htpasswd has " + text.length() + " characters; at most " + MAX_CHARS);
    }
    List<String> users = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    String[] all = text.split("\n", -1);
    for (int i = 0; i < all.length; i++) {
      int number = i + 1;
      String line = all[i].endsWith("\r") ? all[i].substring(0, all[i].length() - 1) : all[i];
      if (line.isEmpty() || line.charAt(0) == '#') {
        continue;
      }
      int colon = line.indexOf(':');
      if (colon < 0) {
        return refused(INVALID_HTPASSWD, "line " + number + " is not user:hash");
      }
      String name = line.substring(0, colon);
      String hash = line.substring(colon + 1);
      if (name.isEmpty() || hash.isEmpty()) {
        return refused(INVALID_HTPASSWD, "line " + number + " has an empty user name or hash");
      }
      Integer earlier = seen.putIfAbsent(name, number);
      if (earlier != null) {
        return refused(INVALID_HTPASSWD, "line " + number + " repeats the user of line " + earlier);
      }
      if (!hash.startsWith(SHA_PREFIX)) {
        return refused(UNSUPPORTED_HASH_FORMAT, "line " + number + " holds a " + scheme(hash) + " hash; Envoy"
            + " accepts {SHA} hashes only (htpasswd -s)");
      }
      if (!isSha1(hash.substring(SHA_PREFIX.length()))) {
        return refused(INVALID_HTPASSWD, "line " + number + ": a {SHA} hash is the base64 of a 20-byte SHA-1"
            + " digest (" + SHA_BASE64_CHARS + " characters)");
      }
      if (users.size() == MAX_USERS) {
        return refused(SecurityChecks.TOO_MANY, "more than " + MAX_USERS + " users");
      }
      users.add(line);
    }
    if (users.isEmpty()) {
      return refused(EMPTY_USERS, "the htpasswd names no user");
    }
    return new Result(Optional.of(new Htpasswd(users)), Optional.empty());
  }

  /** The users, or why there are none. */
  public record Result(Optional<Htpasswd> users, Optional<Refusal> refusal) {
    public Result {
      Objects.requireNonNull(users, "users");
      Objects.requireNonNull(refusal, "refusal");
      if (users.isPresent() == refusal.isPresent()) {
        throw new IllegalArgumentException("exactly one of users and refusal");
      }
    }
  }

  public int size() {
    return lines.size();
  }

  /** The normalised text for Envoy: one {@code user:{SHA}hash} line per user, each ending in a newline. */
  public String render() {
    StringBuilder text = new StringBuilder();
    lines.forEach(line -> text.append(line).append('\n'));
    return text.toString();
  }

  @Override
  public String toString() {
    return "Htpasswd[" + lines.size() + " users]";
  }

  private static Result refused(String reason, String message) {
    return new Result(Optional.empty(), Optional.of(new Refusal(reason, message)));
  }

  /** The scheme of a hash Envoy does not take, named by its prefix (never quoting the hash). */
  private static String scheme(String hash) {
    if (hash.startsWith("$2a$") || hash.startsWith("$2b$") || hash.startsWith("$2y$")) {
      return "bcrypt";
    }
    if (hash.startsWith("$apr1$")) {
      return "MD5 (apr1)";
    }
    if (hash.startsWith("$5$") || hash.startsWith("$6$")) {
      return "SHA-crypt";
    }
    return "crypt or plain-text";
  }

  private static boolean isSha1(String base64) {
    if (base64.length() != SHA_BASE64_CHARS) {
      return false;
    }
    try {
      return Base64.getDecoder().decode(base64).length == 20;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
