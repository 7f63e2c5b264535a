package io.holdfast.server.cli;

import io.holdfast.api.ConfigLoader;
import io.holdfast.server.source.ConfigFiles;
import io.holdfast.server.source.ConfigPaths;
import io.holdfast.server.source.FileProblem;
import io.holdfast.server.validate.ConfigValidation;
import io.holdfast.server.validate.ValidationReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code holdfast validate PATH...}: the server's parser and validation over files, directories or standard
 * input, without a cluster or a server. Exit codes, the highest that applies: 0 everything is accepted (warnings
 * allowed), 1 a resource is rejected or a file cannot be read or parsed, 2 usage errors (no path, a path that does
 * not exist) and a path with nothing to read (an empty directory, or YAML only in subdirectories without
 * {@code -R}: a warning says so, and what there is is still validated), 3 an internal error (Holdfast failed, a
 * bug: never reported as a rejection).
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {"Check gateway config files as the server would: same parser, same validation, same reasons.",
        "Files are validated together, as one config directory (references across files resolve).",
        "Each problem is reported at the line of its field. Exit status: 0 all accepted (warnings allowed),"
            + " 1 something rejected or unreadable, 2 usage error or a path with nothing to read,"
            + " 3 internal error."})
final class ValidateCommand implements Callable<Integer> {
  /** The file name standard input is reported under. */
  static final String STDIN_NAME = "<stdin>";

  private final Supplier<InputStream> stdin;

  @Spec
  private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "PATH",
      description = "A file, a directory (its *.yaml/*.yml files, as serve --config-dir reads them), or - for"
          + " standard input.")
  private List<String> paths;

  @Option(names = {"-R", "--recursive"},
      description = "Also read the subdirectories of directories (dot-directories skipped).")
  private boolean recursive;

  @Option(names = "--ignore-unknown-kinds",
      description = "Skip documents of kinds Holdfast does not read (Deployments, CRDs, ConfigMaps...: a GitOps"
          + " directory) and list them as notes, instead of rejecting them as the server does.")
  private boolean ignoreUnknownKinds;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
      description = "text (one line per problem) or json (every resource with its verdict, for CI)"
          + " (default: ${DEFAULT-VALUE}).")
  private String output;

  /** The serve options verdicts depend on, from the same flags, environment and config file as serve's. */
  @Mixin
  private PipelineOptions pipeline = new PipelineOptions();

  @Option(names = "--config-file", paramLabel = "FILE",
      description = "The serve settings file (YAML): validate takes the settings verdicts depend on from it, as"
          + " serve does (flag > environment HOLDFAST_<OPTION> > file > default). Env: HOLDFAST_CONFIG_FILE.")
  private Path configFile;

  @Mixin
  private LimitOptions limits = new LimitOptions();

  ValidateCommand(Supplier<InputStream> stdin) {
    this.stdin = Objects.requireNonNull(stdin, "stdin");
  }

  @Override
  public Integer call() {
    boolean json = switch (output.trim()) {
      case "text" -> false;
      case "json" -> true;
      default -> throw new ParameterException(spec.commandLine(), "--output must be text or json, got '" + output + "'");
    };
    io.holdfast.pipeline.PipelineSettings settings;
    try {
      settings = pipeline.settings().withLimits(limits.limits(name -> "--" + name));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    List<String> emptyPaths = new ArrayList<>();
    List<ConfigFiles> reads = read(emptyPaths);
    ValidationReport report = new ConfigValidation(settings, ignoreUnknownKinds ? ConfigLoader.UnknownKinds.SKIP
        : ConfigLoader.UnknownKinds.REJECT).validate(reads);
    PrintWriter err = spec.commandLine().getErr();
    emptyPaths.forEach(warning -> err.println("holdfast: warning: " + warning));
    err.flush();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
          .writeValueAsString(report.json()));
    } else {
      out.print(report.text());
    }
    out.flush();
    return switch (report.verdict()) {
      case INTERNAL_ERROR -> HoldfastCli.EXIT_INTERNAL;
      case REJECTED -> emptyPaths.isEmpty() ? HoldfastCli.EXIT_FAILURE : HoldfastCli.EXIT_USAGE;
      case PASSED -> emptyPaths.isEmpty() ? HoldfastCli.EXIT_OK : HoldfastCli.EXIT_USAGE;
    };
  }

  /** Reads every path; a directory that gives nothing to read adds a warning saying why to {@code empty}. */
  private List<ConfigFiles> read(List<String> empty) {
    List<ConfigFiles> reads = new ArrayList<>();
    boolean stdinRead = false;
    for (String arg : paths) {
      if (arg.equals("-")) {
        if (stdinRead) {
          throw new ParameterException(spec.commandLine(), "standard input (-) can be given only once");
        }
        stdinRead = true;
        reads.add(readStdin());
        continue;
      }
      Path path = Path.of(arg);
      if (Files.isDirectory(path)) {
        boolean anything = false;
        for (Path dir : directories(path, recursive)) {
          try {
            ConfigFiles read = ConfigPaths.readDirectory(dir, Clock.systemUTC());
            anything |= !read.contents().isEmpty() || !read.unreadable().isEmpty();
            reads.add(read);
          } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "cannot read directory '" + dir + "': " + e);
          }
        }
        if (!anything) {
          empty.add(nothingToRead(arg, path));
        }
      } else if (Files.isRegularFile(path) && Files.isReadable(path)) {
        reads.add(ConfigPaths.readFile(path, Clock.systemUTC()));
      } else {
        throw new ParameterException(spec.commandLine(), "'" + arg + "' "
            + (Files.exists(path) ? "is not a readable file or directory" : "does not exist"));
      }
    }
    return reads;
  }

  /** Why {@code path}, a directory, gave nothing to read: with a hint when its subdirectories hold config. */
  private String nothingToRead(String arg, Path path) {
    if (recursive) {
      return "'" + arg + "' and its subdirectories have no *.yaml or *.yml files: nothing to validate there";
    }
    long below = directories(path, true).stream().filter(d -> !d.equals(path)).mapToLong(ValidateCommand::configFiles)
        .sum();
    return below == 0 ? "'" + arg + "' has no *.yaml or *.yml files: nothing to validate there"
        : "'" + arg + "' has no *.yaml or *.yml files; its subdirectories have " + below
            + " (read them with -R)";
  }

  /** How many files of {@code dir} serve --config-dir would read (by name: they are not opened). */
  private static long configFiles(Path dir) {
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> !n.startsWith(".") && (n.endsWith(".yaml") || n.endsWith(".yml"))).count();
    } catch (IOException e) {
      return 0;
    }
  }

  private List<Path> directories(Path top, boolean walk) {
    if (!walk) {
      return List.of(top);
    }
    List<Path> found = new ArrayList<>();
    try {
      Files.walkFileTree(top, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          if (!dir.equals(top) && dir.getFileName().toString().startsWith(".")) {
            return FileVisitResult.SKIP_SUBTREE; // editor, VCS and ConfigMap-mount internals
          }
          found.add(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "cannot walk directory '" + top + "': " + e);
    }
    found.sort(null);
    return found;
  }

  private ConfigFiles readStdin() {
    Map<Path, String> contents = new TreeMap<>();
    List<FileProblem> problems = new ArrayList<>();
    Path name = Path.of(STDIN_NAME);
    try {
      // At most what a config file may hold, read before anything is parsed.
      byte[] bytes = stdin.get().readNBytes((int) ConfigPaths.MAX_FILE_BYTES + 1);
      if (bytes.length > ConfigPaths.MAX_FILE_BYTES) {
        problems.add(new FileProblem(name, "larger than " + ConfigPaths.MAX_FILE_BYTES + " bytes"));
      } else {
        contents.put(name, ConfigPaths.decode(bytes));
      }
    } catch (CharacterCodingException e) {
      problems.add(new FileProblem(name, "not valid UTF-8"));
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "cannot read standard input: " + e.getMessage());
    }
    return new ConfigFiles(new TreeMap<>(contents), problems, Clock.systemUTC().instant());
  }
}
