package io.holdfast.server.source;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads config files outside a watcher, by the rules the config-directory source uses (UTF-8 only, a leading
 * byte-order mark dropped, a size cap, per-file failures reported rather than thrown): for {@code holdfast
 * validate}, so a file it accepts reads the same when served.
 */
public final class ConfigPaths {
  /** The largest config file read (Kubernetes caps a ConfigMap at 1 MiB); standard input is held to it too. */
  public static final long MAX_FILE_BYTES = DirectoryReader.MAX_FILE_BYTES;

  private ConfigPaths() {
  }

  /**
   * A directory as {@code serve --config-dir} reads it: its {@code *.yaml}/{@code *.yml} files, dot-files left out.
   *
   * @throws IOException when the directory itself cannot be listed
   */
  public static ConfigFiles readDirectory(Path directory, Clock clock) throws IOException {
    return new DirectoryReader(directory, clock).read();
  }

  /**
   * One file named explicitly: read whatever its name, by the same rules as a directory's files, with the PEM
   * files of its directory (and subdirectories), which its sslConfigs name relative to that directory as in a
   * config directory.
   */
  public static ConfigFiles readFile(Path file, Clock clock) {
    SortedMap<Path, String> contents = new TreeMap<>();
    List<FileProblem> problems = new ArrayList<>();
    DirectoryReader.readOne(file, contents, problems);
    if (contents.isEmpty() && problems.isEmpty()) {
      problems.add(new FileProblem(file, "no such file")); // deleted between the caller's check and the read
    }
    SortedMap<String, String> tls = new TreeMap<>();
    try {
      ConfigFiles directory = new DirectoryReader(file.getParent() == null ? Path.of("") : file.getParent(), clock)
          .read();
      tls.putAll(directory.tlsFiles());
      directory.unreadable().stream().filter(p -> DirectoryReader.isTlsName(p.path().getFileName().toString()))
          .forEach(problems::add);
    } catch (IOException e) {
      // The file itself was readable; PEM files it names are then reported missing where named.
    }
    return new ConfigFiles(contents, problems, clock.instant(), tls);
  }

  /** Bytes read elsewhere (standard input) decoded as a config file is: UTF-8 only, byte-order mark dropped. */
  public static String decode(byte[] bytes) throws java.nio.charset.CharacterCodingException {
    return DirectoryReader.decode(bytes);
  }
}
