package io.holdfast.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Which build is running: the project version and the git commit it was built from, written into
 * {@code io/holdfast/server/build-info.properties} by the build (resource filtering; the commit from
 * {@code git rev-parse HEAD}, {@code unknown} when built outside a git checkout).
 */
record BuildInfo(String version, String commit) {
  static final String RESOURCE = "build-info.properties";
  static final String UNKNOWN = "unknown";

  static BuildInfo read() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + RESOURCE, e);
    }
    return new BuildInfo(known(p.getProperty("version")), known(p.getProperty("commit")));
  }

  /** An unfiltered placeholder (a build that skipped filtering) reads as unknown, never as {@code ${...}}. */
  private static String known(String value) {
    return value == null || value.isBlank() || value.startsWith("${") ? UNKNOWN : value.strip();
  }
}
