package io.holdfast.it.outage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** How the suite starts Java processes: same JDK, same class path as the test JVM, the built holdfast jar. */
final class Launcher {
  /**
   * Every child JVM: the serial collector (no GC threads competing for the 2 cores) and C1 only. A child lives
   * for one scenario and mostly waits on timers, so C2's optimisations never pay back the CPU its compiler
   * threads take while a dozen JVMs start at once, on a machine where the suite's wall time is mostly child
   * JVMs starting. Measured on the shared 2-core machine (load 15): a replica needed 1.9-2.0 s of CPU from exec
   * to its election's start with C1 only, 2.9-3.2 s with both compilers; wall time 3.3-6.3 s against 7.7-12.7 s.
   * What a scenario checks (roles, writes, calls) does not depend on how fast steady-state code runs.
   */
  static final List<String> CHILD_FLAGS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private Launcher() {
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The test JVM's class path: it holds the server, the testkit and grpc-xds. */
  static String classpath() {
    return System.getProperty("java.class.path");
  }

  /** A JVM running {@code mainClass} from the test class path, with a small heap (2 cores, many processes). */
  static List<String> javaMain(String mainClass, List<String> args) {
    return javaMain(List.of(), mainClass, args);
  }

  static List<String> javaMain(List<String> jvmArgs, String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx192m"));
    cmd.addAll(CHILD_FLAGS);
    // This module's quiet configuration, as the test JVM has it; a later -D in jvmArgs wins.
    cmd.add("-Dlogback.configurationFile=logback-it.xml");
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-cp", classpath(), mainClass));
    cmd.addAll(args);
    return cmd;
  }

  /**
   * {@code holdfast ARGS}: {@code java -jar server/target/holdfast.jar} when the build made it (mvn verify), else
   * the CLI main class from the test class path (e.g. when an IT is run from an IDE).
   */
  static List<String> holdfast(List<String> args) {
    String jar = System.getProperty("holdfast.jar", "");
    if (!jar.isEmpty() && Files.isRegularFile(Path.of(jar))) {
      List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx256m"));
      cmd.addAll(CHILD_FLAGS);
      cmd.addAll(List.of("-jar", jar));
      cmd.addAll(args);
      return cmd;
    }
    // The test JVM names this module's quiet configuration (logback-it.xml); the CLI uses the server's own.
    return javaMain(List.of("-Dlogback.configurationFile="
            + repoRoot().resolve("server/src/main/resources/logback.xml")),
        "io.holdfast.server.cli.HoldfastCli", args);
  }

  static Path workDir() {
    return Path.of(System.getProperty("holdfast.it.work", "target/outage"));
  }

  /** {@code workDir()/name}, emptied first: nothing a previous run left (logs, records) may be read as new. */
  static Path freshDir(String name) {
    Path dir = workDir().resolve(name).toAbsolutePath();
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> paths = Files.walk(dir)) {
          for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not empty " + dir, e);
    }
  }

  static Path repoRoot() {
    return Path.of(System.getProperty("holdfast.root", "..")).toAbsolutePath().normalize();
  }
}
