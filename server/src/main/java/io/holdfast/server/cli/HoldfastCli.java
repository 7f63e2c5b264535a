package io.holdfast.server.cli;

import io.holdfast.election.ElectionSettings;
import io.holdfast.kube.status.StatusWriter;
import io.holdfast.server.HoldfastServer;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code holdfast} command line. Parsing and validation live here; what {@code serve} actually runs is the
 * injected {@link ServeAction}, so tests and the production wiring plug in the same way.
 *
 * <p>Exit codes: {@link #EXIT_OK} success or help, {@link #EXIT_FAILURE} the action failed, {@link #EXIT_USAGE}
 * bad flags (one-line error plus a hint, never a stack trace).
 */
public final class HoldfastCli {
  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILURE = 1;
  public static final int EXIT_USAGE = 2;

  private static final Logger LOG = LoggerFactory.getLogger(HoldfastCli.class);

  private final ServeAction serveAction;
  private final java.util.Map<String, String> env;

  public HoldfastCli(ServeAction serveAction) {
    this(serveAction, System.getenv());
  }

  /** With an explicit environment, for tests: settings are read from it as from the process's. */
  public HoldfastCli(ServeAction serveAction, java.util.Map<String, String> env) {
    this.serveAction = Objects.requireNonNull(serveAction, "serveAction");
    this.env = java.util.Map.copyOf(env);
  }

  /** The least a SIGTERM may take before the process gives up on a clean stop. */
  static final Duration MIN_SHUTDOWN_BOUND = Duration.ofSeconds(20);
  /** Room in the bound for what follows the election: draining xDS streams, the admin server, the source. */
  private static final Duration DRAIN_MARGIN = Duration.ofSeconds(5);

  /**
   * How long a clean stop may take with {@code settings}: the status writer's close (a write in flight lands or
   * is abandoned), then the elector's (fenced work drained, fence slack waited out, the lease released), then
   * the rest. Never less than {@link #MIN_SHUTDOWN_BOUND}. The pod's terminationGracePeriodSeconds must exceed
   * it (deploy/ ships 30 s for the default 22.5 s).
   */
  static Duration shutdownBound(ServeSettings settings) {
    ElectionSettings e = settings.election();
    Duration needed = StatusWriter.closeBound(e.leaderRequestTimeout())
        .plus(e.enabled() ? e.maxCloseTime() : Duration.ZERO).plus(DRAIN_MARGIN);
    return needed.compareTo(MIN_SHUTDOWN_BOUND) > 0 ? needed : MIN_SHUTDOWN_BOUND;
  }

  /**
   * The production command line: {@code serve} runs a {@link HoldfastServer} until SIGTERM or SIGINT, then
   * stops it (lease released, streams drained) and exits 0; a stop that outlives {@link #shutdownBound}
   * halts with status 1.
   */
  public static HoldfastCli withDefaultWiring() {
    return new HoldfastCli(settings -> {
      HoldfastServer.useLogFormat(settings.logFormat());
      HoldfastServer server = HoldfastServer.start(settings, java.time.Clock.systemUTC());
      java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
      Duration bound = shutdownBound(settings);
      Runnable stop = () -> {
        Thread watchdog = new Thread(() -> {
          try {
            if (!stopped.await(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
              LOG.error("shutdown did not finish within {}ms, halting", bound.toMillis());
              Runtime.getRuntime().halt(EXIT_FAILURE);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }, "holdfast-shutdown-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        server.close();
        stopped.countDown();
      };
      for (String signal : new String[] {"TERM", "INT"}) {
        sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> {
          LOG.info("received SIG{}, shutting down", signal);
          new Thread(stop, "holdfast-shutdown").start();
        });
      }
      // Any other exit (e.g. the election's exit policy) still stops cleanly.
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "holdfast-shutdown-hook"));
      stopped.await();
      LOG.info("stopped");
      return EXIT_OK;
    });
  }

  public static void main(String[] args) {
    io.holdfast.server.webhook.AdmissionWebhook.boundJdkHttpServerTimes();
    System.exit(withDefaultWiring().execute(args));
  }

  /** Parses {@code args}, runs the chosen command and returns the exit code; writes to System.out/err. */
  public int execute(String... args) {
    return execute(new PrintWriter(System.out, true, StandardCharsets.UTF_8),
        new PrintWriter(System.err, true, StandardCharsets.UTF_8), args);
  }

  int execute(PrintWriter out, PrintWriter err, String... args) {
    return execute(() -> System.in, out, err, args);
  }

  /** As {@link #execute(PrintWriter, PrintWriter, String...)}, with {@code validate -} reading {@code stdin}. */
  int execute(java.util.function.Supplier<java.io.InputStream> stdin, PrintWriter out, PrintWriter err,
      String... args) {
    ServeCommand serve = new ServeCommand(serveAction);
    CommandLine commandLine = new CommandLine(new TopCommand())
        .addSubcommand(serve)
        .addSubcommand(new ValidateCommand(stdin))
        .addSubcommand(new CertsCommand(java.time.Clock.systemUTC()))
        .addSubcommand(new StatusCommand())
        .addSubcommand(new TranslateCommand())
        .addSubcommand(new XdsDumpCommand())
        .setOut(out)
        .setErr(err)
        .setParameterExceptionHandler(USAGE_ERROR)
        .setExecutionExceptionHandler(ACTION_FAILURE);
    CommandLine serveLine = commandLine.getSubcommands().get("serve");
    java.util.Set<String> options = new java.util.HashSet<>();
    serveLine.getCommandSpec().options().forEach(o -> options.add(o.longestName().replaceFirst("^--", "")));
    try {
      // Serve settings (environment, --config-file) are no concern of the other commands, except validate's share
      // of them (PipelineOptions): it must judge with the very settings the server has.
      boolean takesSettings = args.length == 0 || args[0].equals("serve") || args[0].equals("validate")
          || args[0].equals("translate");
      SettingsSources sources = takesSettings ? SettingsSources.load(args, env, options)
          : SettingsSources.load(new String[0], java.util.Map.of(), options);
      serve.sources(sources);
      serveLine.setDefaultValueProvider(sources);
      commandLine.getSubcommands().get("validate").setDefaultValueProvider(sources);
      commandLine.getSubcommands().get("translate").setDefaultValueProvider(sources);
    } catch (IllegalArgumentException e) {
      err.println("holdfast: " + e.getMessage());
      err.flush();
      return EXIT_USAGE;
    }
    int code = commandLine.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  private static final IParameterExceptionHandler USAGE_ERROR = (ParameterException e, String[] args) -> {
    CommandLine failed = e.getCommandLine();
    PrintWriter err = failed.getErr();
    err.println("holdfast: " + e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Try '" + failed.getCommandSpec().qualifiedName() + " --help' for more information.");
    return EXIT_USAGE;
  };

  private static final IExecutionExceptionHandler ACTION_FAILURE = (e, commandLine, parseResult) -> {
    String summary = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    LOG.error("command failed command={} error={}", commandLine.getCommandSpec().qualifiedName(), summary, e);
    commandLine.getErr().println("holdfast: " + commandLine.getCommandName() + " failed: " + summary);
    return EXIT_FAILURE;
  };

  /** Not runnable on its own: without a subcommand picocli reports "Missing required subcommand". */
  @Command(
      name = "holdfast",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Envoy control plane for Kubernetes that keeps the data plane up when the API server"
          + " goes away.")
  static final class TopCommand {
  }

  static final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = HoldfastCli.class.getPackage().getImplementationVersion();
      return new String[] {"holdfast " + (version == null ? "(development build)" : version)};
    }
  }
}
