package io.holdfast.server.cli;

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
 * input, without a cluster or a server. Exit 0 when everything is accepted (warnings allowed), 1 when a resource
 * is rejected or a file cannot be read or parsed, 2 on usage errors (no path, a path that does not exist).
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {"Check gateway config files as the server would: same parser, same validation, same reasons.",
        "Files are validated together, as one config directory (references across files resolve). Exit status:"
            + " 0 all accepted (warnings allowed), 1 something rejected or unreadable, 2 usage error."})
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
      settings = pipeline.settings();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    ValidationReport report;
    try {
      report = new ConfigValidation(settings.withLimits(limits.limits(name -> "--" + name))).validate(read());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
          .writeValueAsString(report.json()));
    } else {
      out.print(report.text());
    }
    out.flush();
    return report.passed() ? HoldfastCli.EXIT_OK : HoldfastCli.EXIT_FAILURE;
  }

  private List<ConfigFiles> read() {
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
        for (Path dir : directories(path)) {
          try {
            reads.add(ConfigPaths.readDirectory(dir, Clock.systemUTC()));
          } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "cannot read directory '" + dir + "': " + e);
          }
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

  private List<Path> directories(Path top) {
    if (!recursive) {
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
