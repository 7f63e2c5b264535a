package io.holdfast.server.cli;

import io.holdfast.election.ElectionSettings;
import io.holdfast.kube.status.StatusWriter;
import io.holdfast.server.AddressInUseException;
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
 * <p>Exit codes: {@link #EXIT_OK} success or help, {@link #EXIT_FAILURE} the action failed (validate: something
 * rejected), {@link #EXIT_USAGE} bad flags or no command (one-line error plus a hint, never a stack trace),
 * {@link #EXIT_INTERNAL} Holdfast itself failed (validate), {@link #EXIT_ADDRESS_IN_USE} serve could not listen.
 */
public final class HoldfastCli {
  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILURE = 1;
  public static final int EXIT_USAGE = 2;
  /** Holdfast failed (an unexpected exception: a bug): never reported as a rejection. */
  public static final int EXIT_INTERNAL = 3;
  /** An address serve listens on (xDS, admin, webhook) is taken: one line names it and its flag. */
  public static final int EXIT_ADDRESS_IN_USE = 4;

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
      // The handlers come first: "holdfast serving" is logged inside start(), and a SIGTERM sent on seeing it
      // used to arrive before they existed, so the JVM's default handling exited without this stop (a race a
      // supervisor, or a test, hits under load). A signal during start() is now kept and acted on once it returns.
      java.util.concurrent.CountDownLatch signalled = new java.util.concurrent.CountDownLatch(1);
      for (String signal : new String[] {"TERM", "INT"}) {
        sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> {
          LOG.info("received SIG{}, shutting down", signal);
          signalled.countDown();
        });
      }
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
      Thread stopper = new Thread(() -> {
        try {
          signalled.await();
          stop.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "holdfast-shutdown");
      stopper.setDaemon(true);
      stopper.start();
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
        .addSubcommand(new VersionCommand())
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
    ServeHelpSections.install(serveLine);
    java.util.Set<String> options = new java.util.HashSet<>();
    serveLine.getCommandSpec().options().forEach(o -> options.add(o.longestName().replaceFirst("^--", "")));
    try {
      // Serve settings (environment, --config-file) are no concern of the other commands, except validate's share
      // of them (PipelineOptions): it must judge with the very settings the server has.
      boolean takesSettings = args.length > 0
          && (args[0].equals("serve") || args[0].equals("validate") || args[0].equals("translate"));
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
    int code;
    try {
      code = commandLine.execute(args);
    } catch (RuntimeException | Error e) {
      // Beyond picocli's handlers (an Error, a failure while printing): still one line and a documented code;
      // an error after which the JVM cannot be trusted exits as the workers' fatal errors do.
      boolean fatal = io.holdfast.common.WorkerFailures.isFatal(e);
      err.println("holdfast: " + (fatal ? "fatal error: " : "internal error: ") + summary(e));
      code = fatal ? io.holdfast.common.WorkerFailures.FATAL_EXIT_STATUS : EXIT_INTERNAL;
    }
    out.flush();
    err.flush();
    return code;
  }

  private static String summary(Throwable e) {
    return e.getMessage() == null ? e.getClass().getName() : e.getMessage();
  }

  private static final IParameterExceptionHandler USAGE_ERROR = (ParameterException e, String[] args) -> {
    CommandLine failed = e.getCommandLine();
    PrintWriter err = failed.getErr();
    err.println("holdfast: " + e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Try '" + failed.getCommandSpec().qualifiedName() + " --help' for more information.");
    return EXIT_USAGE;
  };

  /**
   * A command that threw: a taken address is one line naming its flag ({@link #EXIT_ADDRESS_IN_USE}); validate's
   * failure is Holdfast's own ({@link #EXIT_INTERNAL}: its verdicts are returned, never thrown); any other action's
   * failure is {@link #EXIT_FAILURE}. The stack trace goes to the log at debug level only: the line says it all.
   */
  private static final IExecutionExceptionHandler ACTION_FAILURE = (e, commandLine, parseResult) -> {
    PrintWriter err = commandLine.getErr();
    String command = commandLine.getCommandName();
    Throwable inUse = e;
    for (int depth = 0; inUse != null && !(inUse instanceof AddressInUseException) && depth < 16; depth++) {
      inUse = inUse.getCause();
    }
    if (inUse instanceof AddressInUseException taken) {
      LOG.debug("command failed command={}", command, e);
      err.println("holdfast: " + taken.getMessage() + "; stop what listens there or choose another "
          + taken.flag().replace("-address", "-port"));
      return EXIT_ADDRESS_IN_USE;
    }
    boolean internal = commandLine.getCommand() instanceof ValidateCommand;
    LOG.error("command failed command={} error={}", commandLine.getCommandSpec().qualifiedName(), summary(e), e);
    err.println("holdfast: " + command + " failed: " + (internal ? "internal error: " : "") + summary(e));
    return internal ? EXIT_INTERNAL : EXIT_FAILURE;
  };

  /** Run without a command: prints the usage to standard error and exits {@link #EXIT_USAGE}. */
  @Command(
      name = "holdfast",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      subcommands = CommandLine.HelpCommand.class,
      description = "Envoy control plane for Kubernetes that keeps the data plane up when the API server"
          + " goes away.",
      footer = {"", "Run 'holdfast help COMMAND' or 'holdfast COMMAND --help' for a command's options.",
          "Exit status: 0 success, 1 failure (validate: rejected), 2 usage error, 3 internal error,"
              + " 4 an address serve listens on is in use."})
  static final class TopCommand implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter err = spec.commandLine().getErr();
      spec.commandLine().usage(err);
      err.flush();
      return EXIT_USAGE;
    }
  }

  /** {@code holdfast version}: what {@code --version} prints. */
  @Command(name = "version", mixinStandardHelpOptions = true,
      description = "Print the version, the git commit it was built from and when.")
  static final class VersionCommand implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      for (String line : new VersionProvider().getVersion()) {
        out.println(line);
      }
      out.flush();
      return EXIT_OK;
    }
  }

  static final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {io.holdfast.server.BuildInfo.current().toString()};
    }
  }
}
