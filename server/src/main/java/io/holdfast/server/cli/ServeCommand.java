package io.holdfast.server.cli;

import io.holdfast.api.InputLimits;
import io.holdfast.common.Durations;
import io.holdfast.election.ElectionSettings;
import io.holdfast.election.RecoveryPolicy;
import io.holdfast.xds.server.XdsAuthorisation;
import io.holdfast.xds.server.XdsTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code holdfast serve}: turns flags, environment and config file into {@link ServeSettings} and hands them
 * to the {@link ServeAction}. Values are taken as text and converted here, so that an error names where the
 * bad value came from (the flag, the environment variable, or the config file entry).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {"Run the control plane: read gateway config and serve it to Envoy over xDS.",
        "Every option can also be set in the environment as HOLDFAST_<OPTION> (e.g. HOLDFAST_XDS_PORT), or in a"
            + " YAML --config-file; precedence: flag > environment > file > default."})
final class ServeCommand implements Callable<Integer> {
  static final String DEFAULT_XDS_ADDRESS = "127.0.0.1";
  static final String DEFAULT_XDS_PORT = "18000";
  static final String DEFAULT_ADMIN_ADDRESS = "127.0.0.1";
  static final String DEFAULT_ADMIN_PORT = "9091";
  static final String DEFAULT_LOG_FORMAT = "text";

  private final ServeAction action;
  private SettingsSources sources;

  @Spec
  private CommandSpec spec;

  @Option(names = "--config-file", paramLabel = "FILE",
      description = "YAML file of settings (keys are these options without dashes). Env: HOLDFAST_CONFIG_FILE.")
  private Path configFile;

  // ---- config source
  @Option(names = "--config-dir", paramLabel = "DIR",
      description = "File mode: directory of *.yaml/*.yml gateway config files, watched for changes.")
  private Path configDir;

  @Option(names = "--kubernetes", arity = "0..1", defaultValue = "false", fallbackValue = "true",
      description = "Kubernetes mode: read Gateway, VirtualService and Upstream resources from the API server,"
          + " elect a leader through a Lease, and let only the leader write statuses (default: ${DEFAULT-VALUE}).")
  private boolean kubernetes;

  @Option(names = "--watch-namespace", paramLabel = "NAMESPACE", split = ",",
      description = "Kubernetes mode: watch only these namespaces, repeatable or comma-separated (at most 32);"
          + " nothing namespaced is then listed cluster-wide, so namespaced Roles suffice (default: all namespaces).")
  private List<String> watchNamespaces;

  @Option(names = "--kube-api-url", paramLabel = "URL",
      description = "Kubernetes mode: API server URL (default: in-cluster config, or KUBECONFIG).")
  private String kubeApiUrl;

  /**
   * Fault-injection aid, hidden from help: the status writer's client talks to this URL instead of
   * {@code --kube-api-url}, so the outage suite can put a proxy that delays only the status connection between
   * the leader and the API (it/.../SigtermWithWritesInFlightIT). Not meant for operators.
   */
  @Option(names = "--kube-status-api-server", paramLabel = "URL", hidden = true,
      description = "Test aid: API server URL for the status writer only (default: the --kube-api-url one).")
  private String kubeStatusApiServer;

  @Mixin
  private PipelineOptions pipeline = new PipelineOptions();

  @Option(names = "--gateway-address", paramLabel = "ADDRESS", split = ",",
      description = "Kubernetes Gateway API: an address (IP or host name) the proxies are reachable at, written to"
          + " every Gateway's status.addresses; repeatable, or comma-separated.")
  private List<String> gatewayAddresses;

  @Option(names = "--gateway-service", paramLabel = "NAMESPACE/NAME",
      description = "Kubernetes Gateway API: the Service in front of the proxies; its load-balancer ingress is"
          + " written to every Gateway's status.addresses (after any --gateway-address).")
  private String gatewayService;

  // ---- serving
  @Option(names = "--xds-address", paramLabel = "ADDRESS", defaultValue = DEFAULT_XDS_ADDRESS,
      description = "Address the xDS gRPC server binds to (default: ${DEFAULT-VALUE}).")
  private String xdsAddress;

  @Option(names = "--xds-port", paramLabel = "PORT", defaultValue = DEFAULT_XDS_PORT,
      description = "Port of the xDS gRPC server, 0..65535; 0 picks a free port (default: ${DEFAULT-VALUE}).")
  private String xdsPort;

  @Option(names = "--xds-tls-cert", paramLabel = "FILE",
      description = "PEM certificate chain for xDS over TLS; needs --xds-tls-key. Reloaded when the file changes.")
  private Path tlsCert;

  @Option(names = "--xds-tls-key", paramLabel = "FILE", description = "PEM (PKCS#8) private key of --xds-tls-cert.")
  private Path tlsKey;

  @Option(names = "--xds-tls-client-ca", paramLabel = "FILE",
      description = "PEM CA bundle: require client certificates signed by it (mTLS). Needs --xds-tls-cert.")
  private Path tlsClientCa;

  @Option(names = "--xds-authorisation", paramLabel = "MODE",
      description = "What an xDS stream may see: proxy-identity (only the Gateways naming the proxy its client"
          + " certificate identifies; needs --xds-tls-client-ca) or none (everything). Default: proxy-identity with"
          + " --xds-tls-client-ca, else none.")
  private String xdsAuthorisation;

  @Option(names = "--xds-tls-reload-interval", paramLabel = "DURATION", defaultValue = "10s",
      description = "How often the TLS files are checked for changes (default: ${DEFAULT-VALUE}).")
  private String tlsReloadInterval;

  @Option(names = "--admin-address", paramLabel = "ADDRESS", defaultValue = DEFAULT_ADMIN_ADDRESS,
      description = "Address of the admin HTTP server: / /healthz /readyz /metrics /state"
          + " (default: ${DEFAULT-VALUE}).")
  private String adminAddress;

  @Option(names = "--admin-port", paramLabel = "PORT", defaultValue = DEFAULT_ADMIN_PORT,
      description = "Port of the admin HTTP server, 0..65535 (default: ${DEFAULT-VALUE}).")
  private String adminPort;

  @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "0",
      description = "Port of the validating admission webhook (HTTPS, POST /validate), served by every replica;"
          + " 0 disables it (default: ${DEFAULT-VALUE}). Needs --webhook-tls-cert and --webhook-tls-key.")
  private String webhookPort;

  @Option(names = "--webhook-address", paramLabel = "ADDRESS", defaultValue = "0.0.0.0",
      description = "Address the admission webhook binds to; the API server must reach it (default: ${DEFAULT-VALUE}).")
  private String webhookAddress;

  @Option(names = "--webhook-tls-cert", paramLabel = "FILE",
      description = "PEM certificate chain of the admission webhook; reloaded when the file changes.")
  private Path webhookTlsCert;

  @Option(names = "--webhook-tls-key", paramLabel = "FILE", description = "PEM private key of --webhook-tls-cert.")
  private Path webhookTlsKey;

  @Option(names = "--snapshot-dir", paramLabel = "DIR",
      description = "Existing writable directory where the last-known xDS snapshot is kept, to serve it at once"
          + " after a restart while the API server is unreachable (default: none).")
  private Path snapshotDir;

  @Option(names = "--snapshot-key-file", paramLabel = "FILE",
      description = "AES-256 key (32 bytes, or their base64) sealing TLS private keys in the snapshot file;"
          + " without it TLS secrets are left out of the file, and after a restart during an API outage TLS"
          + " listeners wait for their secrets (default: none).")
  private Path snapshotKeyFile;

  @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = DEFAULT_LOG_FORMAT,
      description = "Log output format: text or json (default: ${DEFAULT-VALUE}).")
  private String logFormat;

  // ---- election (Kubernetes mode)
  @Option(names = "--identity", paramLabel = "NAME",
      description = "Holder identity in the Lease. Env also POD_NAME (default: <hostname>_<random>).")
  private String identity;

  @Option(names = "--lease-namespace", paramLabel = "NAMESPACE", defaultValue = "holdfast-system",
      description = "Namespace of the election Lease. Env also POD_NAMESPACE (default: ${DEFAULT-VALUE}).")
  private String leaseNamespace;

  @Option(names = "--lease-name", paramLabel = "NAME", defaultValue = "holdfast",
      description = "Name of the election Lease (default: ${DEFAULT-VALUE}).")
  private String leaseName;

  @Option(names = "--lease-duration", paramLabel = "DURATION", defaultValue = "15s",
      description = "How long followers wait for an unchanged lease before taking over; whole seconds."
          + " Env also LEADER_ELECTION_LEASE_DURATION (default: ${DEFAULT-VALUE}).")
  private String leaseDuration;

  @Option(names = "--renew-deadline", paramLabel = "DURATION", defaultValue = "10s",
      description = "How long a leader acts without a successful renewal. Env also LEADER_ELECTION_RENEW_PERIOD"
          + " (default: ${DEFAULT-VALUE}).")
  private String renewDeadline;

  @Option(names = "--retry-period", paramLabel = "DURATION", defaultValue = "2s",
      description = "Interval between acquire and renew attempts. Env also LEADER_ELECTION_RETRY_PERIOD"
          + " (default: ${DEFAULT-VALUE}).")
  private String retryPeriod;

  @Option(names = "--lock-timeout", paramLabel = "DURATION", defaultValue = "1s",
      description = "Bound on each Lease API call (default: ${DEFAULT-VALUE}).")
  private String lockTimeout;

  @Option(names = "--leader-request-timeout", paramLabel = "DURATION", defaultValue = "2s",
      description = "Bound on each leader-only request (status writes), further capped at the time left before the"
          + " renew deadline; lease-duration - renew-deadline must exceed it plus --fence-slack"
          + " (default: ${DEFAULT-VALUE}).")
  private String leaderRequestTimeout;

  @Option(names = "--fence-slack", paramLabel = "DURATION", defaultValue = "1s",
      description = "Assumed bound on how much later than its timeout a leader-only request may still reach the"
          + " API server (network delay, clock-rate difference) (default: ${DEFAULT-VALUE}).")
  private String fenceSlack;

  @Option(names = "--disable-leader-election", arity = "0..1", paramLabel = "BOOL", defaultValue = "false",
      fallbackValue = "true",
      description = "Single replica, always leader. Env also DISABLE_LEADER_ELECTION (default: ${DEFAULT-VALUE}).")
  private String disableLeaderElection;

  @Option(names = "--on-lease-loss", paramLabel = "POLICY", defaultValue = "recover",
      description = "recover: become follower and campaign again; exit: quit the process, the legacy behaviour"
          + " (default: ${DEFAULT-VALUE}).")
  private String onLeaseLoss;

  @Mixin
  private LimitOptions limits = new LimitOptions();

  @Mixin
  private XdsLimitOptions xdsLimits = new XdsLimitOptions();

  @Option(names = "--webhook-check-time", paramLabel = "DURATION",
      defaultValue = "" + InputLimits.DEFAULT_WEBHOOK_CHECK_TIME_TEXT,
      description = "Wall-clock budget of one admission check; over it the request is denied"
          + " (default: ${DEFAULT-VALUE}).")
  private String webhookCheckTime;

  @Option(names = "--webhook-check-cpu-time", paramLabel = "DURATION",
      defaultValue = "" + InputLimits.DEFAULT_WEBHOOK_CHECK_CPU_TIME_TEXT,
      description = "CPU budget of one admission check; over it the request is denied (default: ${DEFAULT-VALUE}).")
  private String webhookCheckCpuTime;

  @Option(names = "--max-recovery", paramLabel = "DURATION",
      description = "With recover: exit if no Lease read succeeds within this long after losing the lease."
          + " Env also MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER (default: never exit).")
  private String maxRecovery;

  ServeCommand(ServeAction action) {
    this.action = Objects.requireNonNull(action, "action");
  }

  void sources(SettingsSources sources) {
    this.sources = sources;
  }

  @Override
  public Integer call() throws Exception {
    ServeSettings settings;
    try {
      settings = settings();
    } catch (IllegalArgumentException e) {
      // Reported like a parse error: one line, usage hint, exit code 2.
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    return action.serve(settings);
  }

  private ServeSettings settings() {
    Optional<ServeSettings.KubernetesSource> kube = kubernetes
        ? Optional.of(new ServeSettings.KubernetesSource(watchNamespaces == null ? List.of()
            : watchNamespaces.stream().map(String::trim).filter(n -> !n.isEmpty()).toList(), text(kubeApiUrl),
            text(kubeStatusApiServer)))
        : Optional.empty();
    return new ServeSettings(configDir, xdsAddress, port("xds-port", xdsPort), adminAddress,
        port("admin-port", adminPort), Optional.ofNullable(snapshotDir), logFormat(), tls(), kube,
        kubernetes ? election() : ServeSettings.SINGLE_REPLICA, Optional.ofNullable(snapshotKeyFile), webhook(),
        pipeline.gatewayControllerName, limits.limits(this::origin).withWebhookCheckTimes(
            duration("webhook-check-time", webhookCheckTime), duration("webhook-check-cpu-time", webhookCheckCpuTime)),
        new ServeSettings.GatewayAddressing(
            gatewayAddresses == null ? List.of() : gatewayAddresses.stream().map(String::trim)
                .filter(a -> !a.isEmpty()).toList(), text(gatewayService)),
        xdsLimits.limits(this::origin), pipeline.access(this::origin, kubernetes), xdsAuthorisation(tls()));
  }

  private XdsAuthorisation xdsAuthorisation(Optional<XdsTls> tls) {
    Optional<String> mode = text(xdsAuthorisation);
    if (mode.isEmpty()) {
      return ServeSettings.defaultAuthorisation(tls);
    }
    try {
      return XdsAuthorisation.parse(mode.get());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(origin("xds-authorisation") + " must be none or proxy-identity, got '"
          + xdsAuthorisation + "'");
    }
  }

  private Optional<ServeSettings.Webhook> webhook() {
    int port = port("webhook-port", webhookPort);
    if (port == 0) {
      if (webhookTlsCert != null || webhookTlsKey != null) {
        throw new IllegalArgumentException("--webhook-tls-cert and --webhook-tls-key need --webhook-port");
      }
      return Optional.empty();
    }
    if (webhookTlsCert == null || webhookTlsKey == null) {
      throw new IllegalArgumentException(origin("webhook-port")
          + " needs --webhook-tls-cert and --webhook-tls-key: the API server calls webhooks over HTTPS only");
    }
    return Optional.of(new ServeSettings.Webhook(webhookAddress, port, webhookTlsCert, webhookTlsKey));
  }

  private Optional<XdsTls> tls() {
    if (tlsCert == null && tlsKey == null) {
      if (tlsClientCa != null) {
        throw new IllegalArgumentException("--xds-tls-client-ca needs --xds-tls-cert and --xds-tls-key");
      }
      return Optional.empty();
    }
    if (tlsCert == null || tlsKey == null) {
      throw new IllegalArgumentException("--xds-tls-cert and --xds-tls-key go together: give both");
    }
    XdsTls tls = tlsClientCa == null ? XdsTls.serverOnly(tlsCert, tlsKey) : XdsTls.mutual(tlsCert, tlsKey, tlsClientCa);
    return Optional.of(tls.withReloadInterval(duration("xds-tls-reload-interval", tlsReloadInterval)));
  }

  private ElectionSettings election() {
    ElectionSettings.Builder b = ElectionSettings.builder()
        .enabled(!bool("disable-leader-election", disableLeaderElection))
        .leaseNamespace(leaseNamespace)
        .leaseName(leaseName)
        .leaseDuration(duration("lease-duration", leaseDuration))
        .renewDeadline(duration("renew-deadline", renewDeadline))
        .retryPeriod(duration("retry-period", retryPeriod))
        .lockTimeout(duration("lock-timeout", lockTimeout))
        .leaderRequestTimeout(duration("leader-request-timeout", leaderRequestTimeout))
        .fenceSlack(duration("fence-slack", fenceSlack));
    text(identity).ifPresent(b::identity);
    String policy = onLeaseLoss.trim().toLowerCase(Locale.ROOT);
    Optional<Duration> max = text(maxRecovery).map(v -> duration("max-recovery", v));
    switch (policy) {
      case "recover" -> b.recovery(max.map(RecoveryPolicy::recoverWithin).orElse(RecoveryPolicy.RECOVER));
      case "exit" -> {
        if (max.isPresent()) {
          throw new IllegalArgumentException(origin("max-recovery") + " only applies with --on-lease-loss recover");
        }
        b.recovery(RecoveryPolicy.EXIT);
      }
      default -> throw new IllegalArgumentException(origin("on-lease-loss") + " must be recover or exit, got '"
          + onLeaseLoss + "'");
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(withFlagNames(e.getMessage()));
    }
  }

  /** ElectionSettings names its fields; the operator knows them as flags. */
  private static String withFlagNames(String message) {
    Map<String, String> names = Map.of("leaseDuration", "--lease-duration", "renewDeadline", "--renew-deadline",
        "retryPeriod", "--retry-period", "lockTimeout", "--lock-timeout", "identity", "--identity",
        "leaseNamespace", "--lease-namespace", "leaseName", "--lease-name",
        "leaderRequestTimeout", "--leader-request-timeout", "fenceSlack", "--fence-slack");
    String out = message;
    for (var e : names.entrySet()) {
      out = out.replaceAll("\\b" + e.getKey() + "\\b", e.getValue());
    }
    return out;
  }

  private LogFormat logFormat() {
    try {
      return LogFormat.parse(logFormat);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(origin("log-format") + ": " + e.getMessage());
    }
  }

  private int port(String name, String value) {
    try {
      int p = Integer.parseInt(value.trim());
      if (p < 0 || p > ServeSettings.MAX_PORT) {
        throw new IllegalArgumentException(origin(name) + " must be in 0.." + ServeSettings.MAX_PORT + ", got " + p);
      }
      return p;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(origin(name) + ": '" + value + "' is not a port number (expected an integer in 0.."
          + ServeSettings.MAX_PORT + ")");
    }
  }

  private Duration duration(String name, String value) {
    // The command line has always taken 15S and " 15s"; YAML durations stay as strict as Go's.
    return Durations.parse(origin(name), value.trim().toLowerCase(Locale.ROOT));
  }

  private boolean bool(String name, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(origin(name) + ": '" + value + "' is not a boolean; use true or false");
    }
    return Boolean.parseBoolean(v);
  }

  private String origin(String name) {
    boolean onCommandLine = spec.commandLine().getParseResult().hasMatchedOption("--" + name);
    return sources == null ? "--" + name : sources.origin(name, onCommandLine);
  }

  private static Optional<String> text(String v) {
    return Optional.ofNullable(v).map(String::trim).filter(s -> !s.isEmpty());
  }
}
