package io.holdfast.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.Properties;

/**
 * What this build of Holdfast is: its version, the git commit it was built from and when, written by the build
 * into {@code io/holdfast/server/build-info.properties} (server/pom.xml). Each value is {@link #UNKNOWN} where the
 * build could not tell (built outside git, or from classes the build did not process, as in an IDE).
 */
public record BuildInfo(String version, String commit, String built) {
  public static final String UNKNOWN = "unknown";
  static final String RESOURCE = "build-info.properties";

  public BuildInfo {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(built, "built");
  }

  /** This build's, read once per call from the class path; never throws. */
  public static BuildInfo current() {
    Properties properties = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException | IllegalArgumentException e) {
      // Unreadable: every value is unknown, as for a build that wrote none.
    }
    return new BuildInfo(value(properties, "version"), value(properties, "commit"), value(properties, "built"));
  }

  private static String value(Properties properties, String key) {
    String value = properties.getProperty(key, "").strip();
    // An unexpanded ${...} is a build that did not run the step that fills it in.
    return value.isEmpty() || value.contains("${") ? UNKNOWN : value;
  }

  /** {@code holdfast 0.1.0 (commit 1a2b3c4, built 2026-12-04T17:00:00Z)}. */
  @Override
  public String toString() {
    return "holdfast " + version + " (commit " + commit + ", built " + built + ")";
  }
}
