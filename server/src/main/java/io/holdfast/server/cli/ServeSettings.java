package io.holdfast.server.cli;

import io.holdfast.api.InputLimits;
import io.holdfast.election.ElectionSettings;
import io.holdfast.kube.source.KubeConfigSource;
import io.holdfast.xds.server.XdsAuthorisation;
import io.holdfast.xds.server.XdsTls;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Validated settings of {@code holdfast serve}. Constructing one checks every value, so an instance is always
 * usable; messages name the flag and what is allowed, because they are shown to the operator as is.
 *
 * @param configDir    directory of {@code *.yaml}/{@code *.yml} gateway config files; stored absolute and normalised
 * @param xdsAddress   address the xDS gRPC server binds to (IP literal or host name, never resolved here)
 * @param xdsPort      xDS port, 0..65535 (0 picks a free port)
 * @param adminAddress address of the admin HTTP server (health, readiness, metrics, state)
 * @param adminPort    admin port, 0..65535; must differ from {@code xdsPort} unless either is 0
 * @param snapshotDir  optional existing writable directory for persisted snapshots; stored absolute
 * @param logFormat    log output format
 * @param tls          TLS (or mTLS, with a client CA) for the xDS server; empty for plaintext
 * @param kubernetes   read config from the Kubernetes API instead of {@code configDir}; empty in file mode
 * @param election     leader election; disabled (single replica, always leader) in file mode
 * @param snapshotKeyFile the AES-256 key that seals TLS secrets in the snapshot file; without it they are left out
 * @param webhook      the validating admission webhook's HTTPS server; empty when disabled
 * @param gatewayControllerName the Gateway API controller name: GatewayClasses naming it are Holdfast's, and route
 *                     status entries are written under it
 * @param limits       the bounds on regexes, delegation and webhook checks
 * @param gatewayAddressing where Gateways' {@code status.addresses} come from (Kubernetes mode)
 * @param xdsLimits    what one xDS client may cost the server
 * @param access       what Holdfast objects may reach: other namespaces' Secrets, Upstreams and RouteTables,
 *                     upstream addresses, listener ports
 * @param xdsAuthorisation what an xDS stream may see: {@code proxy-identity} (only its proxy's Gateways, by the
 *                     proxy name of its client certificate) needs mTLS ({@code tls} with a client CA); {@code none}
 *                     (everything) is the only mode without it
 */
public record ServeSettings(
    Path configDir,
    String xdsAddress,
    int xdsPort,
    String adminAddress,
    int adminPort,
    Optional<Path> snapshotDir,
    LogFormat logFormat,
    Optional<XdsTls> tls,
    Optional<KubernetesSource> kubernetes,
    ElectionSettings election,
    Optional<Path> snapshotKeyFile,
    Optional<Webhook> webhook,
    String gatewayControllerName,
    InputLimits limits,
    GatewayAddressing gatewayAddressing,
    io.holdfast.xds.server.XdsLimits xdsLimits,
    io.holdfast.api.AccessPolicy access,
    XdsAuthorisation xdsAuthorisation) {

  public static final int MAX_PORT = 65_535;
  /** The Gateway API controller name unless one is set (the front end's default). */
  public static final String DEFAULT_GATEWAY_CONTROLLER_NAME =
      io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME;
  /**
   * The Gateway API's GatewayController format: a lower-case DNS subdomain, a slash, then a path
   * (gateway.networking.k8s.io/v1 shared_types.go), at most 253 characters.
   */
  private static final java.util.regex.Pattern CONTROLLER_NAME = java.util.regex.Pattern.compile(
      "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+$");

  /** Election settings of file mode: there is no cluster to elect through, so one always-leader replica. */
  public static final ElectionSettings SINGLE_REPLICA = ElectionSettings.builder().enabled(false).build();

  /**
   * Where Kubernetes config comes from.
   *
   * @param watchNamespaces    only these namespaces (distinct, at most {@link KubeConfigSource#MAX_NAMESPACES}, each
   *                           a DNS label); empty for all namespaces
   * @param apiServerUrl       override of the API server URL; empty to use in-cluster config or KUBECONFIG
   * @param statusApiServerUrl fault-injection aid (hidden flag): the URL the status writer alone uses, so a test
   *                           can delay only the status connection; empty to use the same API as the rest
   */
  public record KubernetesSource(List<String> watchNamespaces, Optional<String> apiServerUrl,
      Optional<String> statusApiServerUrl) {
    private static final java.util.regex.Pattern DNS_LABEL =
        java.util.regex.Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    public KubernetesSource {
      Objects.requireNonNull(apiServerUrl, "apiServerUrl");
      Objects.requireNonNull(statusApiServerUrl, "statusApiServerUrl");
      java.util.Set<String> distinct = new java.util.LinkedHashSet<>();
      for (String namespace : Objects.requireNonNull(watchNamespaces, "watchNamespaces")) {
        if (namespace == null || !DNS_LABEL.matcher(namespace).matches()) {
          throw new IllegalArgumentException("--watch-namespace must be a namespace name (a DNS label), got '"
              + namespace + "'");
        }
        distinct.add(namespace);
      }
      if (distinct.size() > KubeConfigSource.MAX_NAMESPACES) {
        throw new IllegalArgumentException("--watch-namespace: at most " + KubeConfigSource.MAX_NAMESPACES
            + " namespaces (got " + distinct.size() + "); leave it out to watch all namespaces");
      }
      watchNamespaces = List.copyOf(distinct);
    }

    /** One namespace, or all (empty). */
    public KubernetesSource(Optional<String> watchNamespace, Optional<String> apiServerUrl,
        Optional<String> statusApiServerUrl) {
      this(watchNamespace.stream().toList(), apiServerUrl, statusApiServerUrl);
    }

    public KubernetesSource(Optional<String> watchNamespace, Optional<String> apiServerUrl) {
      this(watchNamespace, apiServerUrl, Optional.empty());
    }
  }

  /**
   * The admission webhook's HTTPS server.
   *
   * @param address     address it binds to (IP literal or host name)
   * @param port        0..65535, 0 picks a free port (the flag's 0 means no webhook instead)
   * @param certificate PEM certificate chain; re-read when it changes
   * @param key         PEM private key of {@code certificate}
   */
  public record Webhook(String address, int port, Path certificate, Path key) {
    public Webhook {
      requireAddress("--webhook-address", address);
      requirePort("--webhook-port", port);
      Objects.requireNonNull(certificate, "--webhook-tls-cert");
      Objects.requireNonNull(key, "--webhook-tls-key");
    }

    /** Where the webhook binds. A host name (not a literal) is resolved by this call. */
    public InetSocketAddress socketAddress() {
      return new InetSocketAddress(AddressSyntax.stripBrackets(address), port);
    }
  }

  /**
   * The addresses written to Holdfast's Gateways' {@code status.addresses}: stated ones ({@code --gateway-address},
   * repeatable, IP literals or host names) and those of the load-balancer ingress of the Service in front of the
   * proxies ({@code --gateway-service NAMESPACE/NAME}). Kubernetes mode only (file mode writes no status).
   */
  public record GatewayAddressing(java.util.List<String> addresses, Optional<String> service) {

    /** No addresses: Gateways' {@code status.addresses} are left as they are. */
    public static final GatewayAddressing NONE = new GatewayAddressing(java.util.List.of(), Optional.empty());

    private static final java.util.regex.Pattern DNS_LABEL = java.util.regex.Pattern.compile(
        "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    public GatewayAddressing {
      addresses = java.util.List.copyOf(addresses);
      addresses.forEach(a -> {
        if (!AddressSyntax.isValid(a)) {
          throw new IllegalArgumentException("--gateway-address must be an IP address or host name, got '" + a + "'");
        }
      });
      Objects.requireNonNull(service, "service (use Optional.empty())");
      service.ifPresent(GatewayAddressing::namespaceAndName);
    }

    /** The Service's namespace and name. */
    public static String[] namespaceAndName(String service) {
      String[] parts = service.split("/", -1);
      if (parts.length != 2 || !DNS_LABEL.matcher(parts[0]).matches() || parts[1].length() > 253
          || !parts[1].matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
        throw new IllegalArgumentException("--gateway-service must be NAMESPACE/NAME of the Service in front of the"
            + " proxies, got '" + service + "'");
      }
      return parts;
    }

    boolean isEmpty() {
      return addresses.isEmpty() && service.isEmpty();
    }
  }

  /** With the default xDS limits. */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election, Optional<Path> snapshotKeyFile, Optional<Webhook> webhook,
      String gatewayControllerName, InputLimits limits, GatewayAddressing gatewayAddressing) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        snapshotKeyFile, webhook, gatewayControllerName, limits, gatewayAddressing,
        io.holdfast.xds.server.XdsLimits.DEFAULTS);
  }

  /** With the default bounds and without Gateway addresses. */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election, Optional<Path> snapshotKeyFile, Optional<Webhook> webhook,
      String gatewayControllerName) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        snapshotKeyFile, webhook, gatewayControllerName, InputLimits.DEFAULTS, GatewayAddressing.NONE);
  }

  /** With the default Gateway API controller name. */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election, Optional<Path> snapshotKeyFile, Optional<Webhook> webhook) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        snapshotKeyFile, webhook, DEFAULT_GATEWAY_CONTROLLER_NAME);
  }

  /** Without the webhook. */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election, Optional<Path> snapshotKeyFile) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        snapshotKeyFile, Optional.empty());
  }

  /** Without a snapshot key (TLS secrets are left out of the snapshot file) and without the webhook. */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        Optional.empty());
  }

  /** File mode, plaintext xDS, single replica. */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, Optional.empty(),
        Optional.empty(), SINGLE_REPLICA);
  }

  /** With the default authorisation for {@code tls} ({@link #defaultAuthorisation}). */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election, Optional<Path> snapshotKeyFile, Optional<Webhook> webhook,
      String gatewayControllerName, InputLimits limits, GatewayAddressing gatewayAddressing,
      io.holdfast.xds.server.XdsLimits xdsLimits, io.holdfast.api.AccessPolicy access) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        snapshotKeyFile, webhook, gatewayControllerName, limits, gatewayAddressing, xdsLimits, access,
        defaultAuthorisation(tls));
  }

  /** With the default access policy of their mode ({@link #defaultAccess}). */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election, Optional<Path> snapshotKeyFile, Optional<Webhook> webhook,
      String gatewayControllerName, InputLimits limits, GatewayAddressing gatewayAddressing,
      io.holdfast.xds.server.XdsLimits xdsLimits, XdsAuthorisation xdsAuthorisation) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        snapshotKeyFile, webhook, gatewayControllerName, limits, gatewayAddressing, xdsLimits,
        defaultAccess(kubernetes), xdsAuthorisation);
  }

  /** {@code proxy-identity} whenever clients must present a certificate, else {@code none}. */
  public static XdsAuthorisation defaultAuthorisation(Optional<XdsTls> tls) {
    return tls.filter(XdsTls::requiresClientCertificate).isPresent()
        ? XdsAuthorisation.PROXY_IDENTITY : XdsAuthorisation.NONE;
  }

  public ServeSettings {
    Objects.requireNonNull(xdsAuthorisation, "xdsAuthorisation");
    if (xdsAuthorisation == XdsAuthorisation.PROXY_IDENTITY
        && tls.filter(XdsTls::requiresClientCertificate).isEmpty()) {
      throw new IllegalArgumentException("--xds-authorisation proxy-identity needs --xds-tls-client-ca: a proxy's"
          + " identity is its client certificate, so without mutual TLS only --xds-authorisation none is allowed");
    }
    Objects.requireNonNull(xdsLimits, "xdsLimits");
    Objects.requireNonNull(access, "access");
    // Values that are wrong on their own first, then those that depend on the file system.
    requireAddress("--xds-address", xdsAddress);
    requirePort("--xds-port", xdsPort);
    requireAddress("--admin-address", adminAddress);
    requirePort("--admin-port", adminPort);
    if (xdsPort != 0 && xdsPort == adminPort) {
      throw new IllegalArgumentException(
          "--admin-port " + adminPort + " is the same as --xds-port: the two servers need different ports");
    }
    Objects.requireNonNull(webhook, "webhook (use Optional.empty())");
    if (webhook.isPresent()) {
      int port = webhook.get().port();
      if (port != 0 && (port == xdsPort || port == adminPort)) {
        throw new IllegalArgumentException("--webhook-port " + port + " is the same as --"
            + (port == xdsPort ? "xds" : "admin") + "-port: each server needs its own port");
      }
    }
    if (logFormat == null) {
      throw new IllegalArgumentException("--log-format is required: text or json");
    }
    requireControllerName(gatewayControllerName);
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(gatewayAddressing, "gatewayAddressing (use GatewayAddressing.NONE)");
    if (kubernetes.isEmpty() && !gatewayAddressing.isEmpty()) {
      throw new IllegalArgumentException("--gateway-address and --gateway-service need --kubernetes: Gateway"
          + " addresses are written to Gateway statuses, which file mode does not write");
    }
    Objects.requireNonNull(tls, "tls (use Optional.empty())");
    Objects.requireNonNull(kubernetes, "kubernetes (use Optional.empty())");
    Objects.requireNonNull(election, "election");
    if (kubernetes.isPresent()) {
      if (configDir != null) {
        throw new IllegalArgumentException("--config-dir and --kubernetes exclude each other: choose one config source");
      }
    } else {
      configDir = requireReadableDirectory("--config-dir", configDir);
    }
    Objects.requireNonNull(snapshotDir, "snapshotDir (use Optional.empty())");
    snapshotDir = snapshotDir.map(ServeSettings::requireWritableDirectory);
    Objects.requireNonNull(snapshotKeyFile, "snapshotKeyFile (use Optional.empty())");
    if (snapshotKeyFile.isPresent() && snapshotDir.isEmpty()) {
      throw new IllegalArgumentException("--snapshot-key-file needs --snapshot-dir: it seals the snapshot kept there");
    }
    snapshotKeyFile = snapshotKeyFile.map(f -> f.toAbsolutePath().normalize());
  }

  /**
   * The settings every verdict depends on: the one value the server's pipeline, its admission webhook and
   * {@code holdfast validate} build their checks from.
   */
  public io.holdfast.pipeline.PipelineSettings pipeline() {
    return new io.holdfast.pipeline.PipelineSettings(gatewayControllerName, limits, access);
  }

  /**
   * Settings with the default access policy of their mode ({@link #defaultAccess}) and the default authorisation
   * for {@code tls} ({@link #defaultAuthorisation}).
   */
  public ServeSettings(Path configDir, String xdsAddress, int xdsPort, String adminAddress, int adminPort,
      Optional<Path> snapshotDir, LogFormat logFormat, Optional<XdsTls> tls, Optional<KubernetesSource> kubernetes,
      ElectionSettings election, Optional<Path> snapshotKeyFile, Optional<Webhook> webhook,
      String gatewayControllerName, InputLimits limits, GatewayAddressing gatewayAddressing,
      io.holdfast.xds.server.XdsLimits xdsLimits) {
    this(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls, kubernetes, election,
        snapshotKeyFile, webhook, gatewayControllerName, limits, gatewayAddressing, xdsLimits,
        defaultAccess(kubernetes), defaultAuthorisation(tls));
  }

  /** {@code AccessPolicy.KUBERNETES_DEFAULTS} with a Kubernetes source, else {@code FILE_DEFAULTS}. */
  public static io.holdfast.api.AccessPolicy defaultAccess(Optional<KubernetesSource> kubernetes) {
    return kubernetes != null && kubernetes.isPresent() ? io.holdfast.api.AccessPolicy.KUBERNETES_DEFAULTS
        : io.holdfast.api.AccessPolicy.FILE_DEFAULTS;
  }

  /** The same settings with {@code value} as their access policy. */
  public ServeSettings withAccess(io.holdfast.api.AccessPolicy value) {
    return new ServeSettings(configDir, xdsAddress, xdsPort, adminAddress, adminPort, snapshotDir, logFormat, tls,
        kubernetes, election, snapshotKeyFile, webhook, gatewayControllerName, limits, gatewayAddressing, xdsLimits,
        value, xdsAuthorisation);
  }

    /** True when config comes from files (and the config directory is set). */
  public boolean fileMode() {
    return kubernetes.isEmpty();
  }

  /** Where the xDS server binds. A host name (not a literal) is resolved by this call. */
  public InetSocketAddress xdsSocketAddress() {
    return new InetSocketAddress(AddressSyntax.stripBrackets(xdsAddress), xdsPort);
  }

  /** Where the admin server binds. A host name (not a literal) is resolved by this call. */
  public InetSocketAddress adminSocketAddress() {
    return new InetSocketAddress(AddressSyntax.stripBrackets(adminAddress), adminPort);
  }

  private static Path requireReadableDirectory(String flag, Path dir) {
    if (dir == null) {
      throw new IllegalArgumentException(flag
          + " is required: the directory holding the *.yaml/*.yml config files (or use --kubernetes)");
    }
    Path absolute = requireDirectory(flag, dir);
    if (!Files.isReadable(absolute)) {
      throw new IllegalArgumentException(flag + " '" + dir + "' is not readable");
    }
    return absolute;
  }

  private static Path requireWritableDirectory(Path dir) {
    Path absolute = requireDirectory("--snapshot-dir", dir);
    if (!Files.isWritable(absolute)) {
      throw new IllegalArgumentException("--snapshot-dir '" + dir + "' is not writable");
    }
    return absolute;
  }

  private static Path requireDirectory(String flag, Path dir) {
    Path absolute = dir.toAbsolutePath().normalize();
    if (!Files.exists(absolute)) {
      throw new IllegalArgumentException(flag + " '" + dir + "' does not exist");
    }
    if (!Files.isDirectory(absolute)) {
      throw new IllegalArgumentException(flag + " '" + dir + "' is not a directory");
    }
    return absolute;
  }

  /**
   * Checks a Gateway API controller name: a domain-prefixed path such as {@code holdfast.io/gateway-controller}.
   *
   * @throws IllegalArgumentException naming the flag and the expected form
   */
  public static String requireControllerName(String name) {
    if (name == null || name.isEmpty() || name.length() > 253 || !CONTROLLER_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("--gateway-controller-name must be a domain-prefixed path of at most 253"
          + " characters, like " + DEFAULT_GATEWAY_CONTROLLER_NAME + ", got '" + (name == null ? "" : name) + "'");
    }
    return name;
  }

  private static void requirePort(String flag, int port) {
    if (port < 0 || port > MAX_PORT) {
      throw new IllegalArgumentException(flag + " must be in 0.." + MAX_PORT + ", got " + port);
    }
  }

  private static void requireAddress(String flag, String address) {
    if (!AddressSyntax.isValid(address)) {
      throw new IllegalArgumentException(
          flag + " must be an IP address or host name, got '" + (address == null ? "" : address) + "'");
    }
  }
}
