package io.holdfast.server.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads every config file of one directory (not its subdirectories), and every PEM file of it and its
 * subdirectories up to {@link #MAX_TLS_DEPTH} levels (dot-entries skipped: editor files, ConfigMap and Secret mount
 * internals, reached through their visible links instead), into a {@link ConfigFiles}.
 */
final class DirectoryReader {
  /** Kubernetes caps a ConfigMap at 1 MiB; anything far larger is a mistake, not config. */
  static final long MAX_FILE_BYTES = 8L * 1024 * 1024;
  /** Far above any real PEM bundle; keeps a mistaken match (a disk image named .crt) from being slurped. */
  static final long MAX_TLS_FILE_BYTES = 1L << 20;
  static final int MAX_TLS_DEPTH = 3;

  private final Path directory;
  private final Clock clock;

  DirectoryReader(Path directory, Clock clock) {
    this.directory = directory;
    this.clock = clock;
  }

  /** Config files are {@code *.yaml}/{@code *.yml}; dot-files are editor swap/lock/temp files or ConfigMap internals. */
  static boolean isConfigName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return !name.startsWith(".") && (lower.endsWith(".yaml") || lower.endsWith(".yml"));
  }

  /** PEM files sslConfigs may name: certificates, keys, CA bundles. */
  static boolean isTlsName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return !name.startsWith(".") && (lower.endsWith(".pem") || lower.endsWith(".crt") || lower.endsWith(".key")
        || lower.endsWith(".cer"));
  }

  /**
   * @throws IOException only when the directory itself cannot be listed; per-file failures become problems
   */
  ConfigFiles read() throws IOException {
    SortedMap<Path, String> contents = new TreeMap<>();
    List<FileProblem> problems = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        if (isConfigName(entry.getFileName().toString())) {
          readOne(entry, contents, problems);
        }
      }
    } catch (DirectoryIteratorException e) {
      throw e.getCause();
    }
    SortedMap<String, String> tls = new TreeMap<>();
    readTls(directory, 0, tls, problems);
    problems.sort((a, b) -> a.path().compareTo(b.path()));
    return new ConfigFiles(contents, problems, clock.instant(), tls);
  }

  /** The subdirectories PEM files are read from (and the watcher watches), dot-directories skipped. */
  List<Path> tlsDirectories() {
    List<Path> found = new ArrayList<>();
    collectDirectories(directory, 0, found);
    return found;
  }

  private void collectDirectories(Path dir, int depth, List<Path> found) {
    if (depth >= MAX_TLS_DEPTH) {
      return;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (!entry.getFileName().toString().startsWith(".") && Files.isDirectory(entry)) {
          found.add(entry);
          collectDirectories(entry, depth + 1, found);
        }
      }
    } catch (IOException | DirectoryIteratorException e) {
      // An unlistable subdirectory holds nothing we can read; its PEM files show up as missing where named.
    }
  }

  private void readTls(Path dir, int depth, SortedMap<String, String> tls, List<FileProblem> problems) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.startsWith(".")) {
          continue;
        }
        if (Files.isDirectory(entry)) {
          if (depth + 1 < MAX_TLS_DEPTH) {
            readTls(entry, depth + 1, tls, problems);
          }
        } else if (isTlsName(name)) {
          readTlsFile(entry, tls, problems);
        }
      }
    } catch (IOException | DirectoryIteratorException e) {
      if (depth > 0) {
        problems.add(new FileProblem(dir, "directory unreadable: " + e.getClass().getSimpleName()));
      }
    }
  }

  private void readTlsFile(Path file, SortedMap<String, String> tls, List<FileProblem> problems) {
    String relative = directory.relativize(file).toString().replace(java.io.File.separatorChar, '/');
    try {
      if (Files.size(file) > MAX_TLS_FILE_BYTES) {
        problems.add(new FileProblem(file, "larger than " + MAX_TLS_FILE_BYTES + " bytes, too large for a PEM file"));
        return;
      }
      tls.put(relative, decode(Files.readAllBytes(file)));
    } catch (NoSuchFileException e) {
      // Deleted while listing (or a broken link): named by an sslConfig, it is reported as missing there.
    } catch (CharacterCodingException e) {
      problems.add(new FileProblem(file, "not valid UTF-8 (PEM is text)"));
    } catch (AccessDeniedException e) {
      problems.add(new FileProblem(file, "permission denied"));
    } catch (IOException | RuntimeException e) {
      problems.add(new FileProblem(file, e.getClass().getSimpleName()));
    }
  }

  static void readOne(Path file, SortedMap<Path, String> contents, List<FileProblem> problems) {
    try {
      if (Files.isDirectory(file)) {
        problems.add(new FileProblem(file, "is a directory"));
        return;
      }
      if (Files.size(file) > MAX_FILE_BYTES) {
        problems.add(new FileProblem(file, "larger than " + MAX_FILE_BYTES + " bytes"));
        return;
      }
      contents.put(file, decode(Files.readAllBytes(file)));
    } catch (NoSuchFileException e) {
      if (Files.isSymbolicLink(file)) {
        problems.add(new FileProblem(file, "broken symbolic link"));
      }
      // Otherwise it was deleted while listing; its delete event triggers another read.
    } catch (CharacterCodingException e) {
      problems.add(new FileProblem(file, "not valid UTF-8"));
    } catch (AccessDeniedException e) {
      problems.add(new FileProblem(file, "permission denied"));
    } catch (IOException | RuntimeException e) {
      problems.add(new FileProblem(file, e.getClass().getSimpleName() + ": " + e.getMessage()));
    }
  }

  static String decode(byte[] bytes) throws CharacterCodingException {
    String text = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }
}
