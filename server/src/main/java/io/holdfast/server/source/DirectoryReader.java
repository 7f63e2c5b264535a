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

/** Reads every config file of one directory (not its subdirectories) into a {@link ConfigFiles}. */
final class DirectoryReader {
  /** Kubernetes caps a ConfigMap at 1 MiB; anything far larger is a mistake, not config. */
  static final long MAX_FILE_BYTES = 8L * 1024 * 1024;

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
    problems.sort((a, b) -> a.path().compareTo(b.path()));
    return new ConfigFiles(contents, problems, clock.instant());
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
