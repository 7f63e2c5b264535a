package io.holdfast.server.cli;

import io.holdfast.pki.ProxyIdentity;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code holdfast certs}: makes the xDS mTLS material deploy/ mounts (a CA, the xDS server's certificate, one
 * client certificate per proxy) as PEM files and, with {@code --kubernetes-secrets}, as Secret manifests to
 * {@code kubectl apply}. The CA's key stays in the output directory and never goes into a Secret: nothing in the
 * cluster needs it. Exit 0 when written, 1 when writing failed, 2 on bad options (nothing written).
 */
@Command(
    name = "certs",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {"Create the certificates of xDS mutual TLS: a CA, the xDS server's certificate, and one client"
        + " certificate per proxy with the identity spiffe://<trust-domain>/proxy/<name> (URI SAN; also the common"
        + " name when at most 64 characters). Keys are ECDSA P-256 in PKCS#8 PEM, written with mode 0600. Existing files are kept unless"
        + " --force."})
final class CertsCommand implements Callable<Integer> {
  /** The names of deploy/service.yaml's xDS Service, which proxies in the cluster dial. */
  static final List<String> DEFAULT_SERVER_DNS = List.of("holdfast-xds.holdfast-system.svc",
      "holdfast-xds.holdfast-system.svc.cluster.local");
  /** Bounds the options' repeats: each name is a certificate or a SAN; far more is a mistake, not a deployment. */
  static final int MAX_PROXIES = 1000;
  static final int MAX_SERVER_NAMES = 100;
  /** The longest validity accepted, in days: 100 years, past any CA's useful life. */
  static final int MAX_DAYS = 36_500;
  /** Certificates start this long before now, so a peer whose clock is a little behind accepts them at once. */
  static final Duration BACKDATE = Duration.ofMinutes(5);

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

  private final Clock clock;

  @Spec
  private CommandSpec spec;

  @Option(names = "--output-dir", paramLabel = "DIR", defaultValue = "holdfast-certs",
      description = "Directory to write into; created if missing (default: ${DEFAULT-VALUE}).")
  private Path outputDir;

  @Option(names = "--proxy", paramLabel = "NAME",
      description = "A proxy to make a client certificate for; repeatable. The name a Holdfast Gateway lists in"
          + " spec.proxyNames, or <namespace>/<name> of a Gateway API Gateway (default: gateway-proxy).")
  private List<String> proxies;

  @Option(names = "--trust-domain", paramLabel = "DOMAIN", defaultValue = ProxyIdentity.DEFAULT_TRUST_DOMAIN,
      description = "SPIFFE trust domain of the proxy identities (default: ${DEFAULT-VALUE}).")
  private String trustDomain;

  @Option(names = "--server-dns", paramLabel = "NAME", split = ",",
      description = "DNS name of the xDS server certificate; repeatable, or comma-separated (default: the"
          + " holdfast-xds Service: holdfast-xds.holdfast-system.svc and ...svc.cluster.local).")
  private List<String> serverDns;

  @Option(names = "--server-ip", paramLabel = "IP", split = ",",
      description = "IP address of the xDS server certificate; repeatable, or comma-separated (default: none).")
  private List<String> serverIps;

  @Option(names = "--loopback", defaultValue = "false",
      description = "Also name localhost, 127.0.0.1 and ::1 in the server certificate, for a server on this host.")
  private boolean loopback;

  @Option(names = "--ca-validity-days", paramLabel = "DAYS", defaultValue = "3650",
      description = "Validity of the CA, in days (default: ${DEFAULT-VALUE}).")
  private String caDays;

  @Option(names = "--validity-days", paramLabel = "DAYS", defaultValue = "365",
      description = "Validity of the server and proxy certificates, in days; at most the CA's (default:"
          + " ${DEFAULT-VALUE}).")
  private String leafDays;

  @Option(names = "--kubernetes-secrets", paramLabel = "NAMESPACE",
      description = "Also write secrets.yaml: the kubernetes.io/tls Secret holdfast-xds-tls (tls.crt, tls.key,"
          + " ca.crt) in NAMESPACE, as deploy/deployment.yaml mounts it, and one holdfast-proxy-<name> Secret per"
          + " proxy.")
  private String secretsNamespace;

  @Option(names = "--proxy-secrets-namespace", paramLabel = "NAMESPACE",
      description = "Namespace of the proxies' Secrets in secrets.yaml (default: the --kubernetes-secrets one).")
  private String proxySecretsNamespace;

  @Option(names = "--snapshot-key", defaultValue = "false",
      description = "Also make snapshot.key, a random AES-256 key for serve --snapshot-key-file (and, with"
          + " --kubernetes-secrets, the Secret holdfast-snapshot-key deploy/ mounts).")
  private boolean snapshotKey;

  @Option(names = "--force", defaultValue = "false", description = "Replace files that already exist.")
  private boolean force;

  @Option(names = "--reuse-ca", defaultValue = "false",
      description = "Sign with the CA already in --output-dir (ca.crt, ca.key), kept as it is, instead of making a"
          + " new one: certificates issued before stay valid. To add proxies: --reuse-ca --force --proxy ...")
  private boolean reuseCa;

  CertsCommand(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Integer call() throws Exception {
    CertsPlan plan;
    try {
      plan = plan();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    List<Path> written;
    try {
      written = CertsOutput.write(plan, clock.instant().minus(BACKDATE));
    } catch (CertsOutput.ExistingFilesException | IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    written.forEach(file -> out.println("wrote " + file));
    if (plan.secrets().isPresent()) {
      out.println("next: kubectl apply -f " + plan.outputDir().resolve(CertsOutput.SECRETS_FILE)
          + " (keep ca.key out of the cluster: it only signs more certificates)");
    }
    out.flush();
    return HoldfastCli.EXIT_OK;
  }

  private CertsPlan plan() {
    String domain = trustDomain.trim();
    try {
      ProxyIdentity.checkTrustDomain(domain);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--trust-domain: " + e.getMessage());
    }
    List<String> names = proxies == null ? List.of("gateway-proxy") : proxies;
    if (names.size() > MAX_PROXIES) { // checked before the loop: each name costs a key pair
      throw new IllegalArgumentException("--proxy is given " + names.size() + " times, over " + MAX_PROXIES
          + ": run certs several times with --output-dir each");
    }
    Set<ProxyIdentity> identities = new LinkedHashSet<>();
    for (String name : names) {
      try {
        identities.add(new ProxyIdentity(domain, name));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--proxy: " + e.getMessage());
      }
    }
    int ca = days("--ca-validity-days", caDays);
    int leaf = days("--validity-days", leafDays);
    if (leaf > ca) {
      throw new IllegalArgumentException("--validity-days (" + leaf + ") must not exceed --ca-validity-days (" + ca
          + "): a certificate outliving its CA stops verifying when the CA expires");
    }
    Optional<CertsPlan.Secrets> secrets = Optional.empty();
    if (secretsNamespace != null) {
      String server = namespace("--kubernetes-secrets", secretsNamespace);
      String proxy = proxySecretsNamespace == null ? server
          : namespace("--proxy-secrets-namespace", proxySecretsNamespace);
      secrets = Optional.of(new CertsPlan.Secrets(server, proxy));
    } else if (proxySecretsNamespace != null) {
      throw new IllegalArgumentException("--proxy-secrets-namespace needs --kubernetes-secrets");
    }
    CertsPlan plan = new CertsPlan(outputDir, List.copyOf(identities), serverDnsNames(), serverAddresses(),
        Duration.ofDays(ca), Duration.ofDays(leaf), secrets, snapshotKey, force, reuseCa);
    CertsOutput.checkDistinctProxyFiles(plan.proxies());
    return plan;
  }

  private List<String> serverDnsNames() {
    Set<String> out = new LinkedHashSet<>();
    List<String> given = bounded("--server-dns", serverDns == null ? DEFAULT_SERVER_DNS : serverDns);
    for (String raw : given) {
      String name = raw.trim().toLowerCase(Locale.ROOT);
      if (!isDnsName(name)) {
        throw new IllegalArgumentException("--server-dns: '" + printable(raw) + "' is not a DNS name (labels of"
            + " letters, digits and '-', optionally a leading '*.'; IP addresses go in --server-ip)");
      }
      out.add(name);
    }
    if (loopback) {
      out.add("localhost");
    }
    return bounded("--server-dns", new ArrayList<>(out));
  }

  private List<InetAddress> serverAddresses() {
    Set<InetAddress> out = new LinkedHashSet<>();
    for (String raw : bounded("--server-ip", serverIps == null ? List.<String>of() : serverIps)) {
      out.add(ipLiteral(raw.trim()).orElseThrow(() -> new IllegalArgumentException("--server-ip: '"
          + printable(raw) + "' is not an IPv4 or IPv6 address")));
    }
    if (loopback) {
      out.add(ipLiteral("127.0.0.1").orElseThrow());
      out.add(ipLiteral("::1").orElseThrow());
    }
    return bounded("--server-ip", new ArrayList<>(out));
  }

  private static <T> List<T> bounded(String option, List<T> values) {
    if (values.size() > MAX_SERVER_NAMES) {
      throw new IllegalArgumentException(option + " names " + values.size() + " values, over " + MAX_SERVER_NAMES
          + " (with --loopback's)");
    }
    return values;
  }

  static boolean isDnsName(String name) {
    String rest = name.startsWith("*.") ? name.substring(2) : name;
    if (rest.isEmpty() || name.length() > 253) {
      return false;
    }
    boolean allNumeric = true;
    for (String label : rest.split("\\.", -1)) {
      if (!DNS_LABEL.matcher(label).matches()) {
        return false;
      }
      allNumeric &= label.chars().allMatch(Character::isDigit);
    }
    return !allNumeric;
  }

  /** The address {@code text} spells, never looked up in DNS: literals only. */
  static Optional<InetAddress> ipLiteral(String text) {
    String bare = AddressSyntax.stripBrackets(text);
    boolean v4 = bare.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    boolean v6 = bare.contains(":") && bare.matches("[0-9A-Fa-f:.]+");
    if (!v4 && !v6 || !AddressSyntax.isValid(bare)) {
      return Optional.empty();
    }
    try {
      return Optional.of(InetAddress.getByName(v6 ? "[" + bare + "]" : bare));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  private static int days(String option, String value) {
    try {
      int days = Integer.parseInt(value.trim());
      if (days < 1 || days > MAX_DAYS) {
        throw new IllegalArgumentException(option + " must be in 1.." + MAX_DAYS + ", got " + days);
      }
      return days;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + ": '" + printable(value) + "' is not a whole number of days");
    }
  }

  private static String namespace(String option, String value) {
    String ns = value.trim();
    if (ns.length() > 63 || !DNS_LABEL.matcher(ns).matches()) {
      throw new IllegalArgumentException(option + ": '" + printable(value) + "' is not a namespace name (a DNS"
          + " label: at most 63 lower-case letters, digits and '-')");
    }
    return ns;
  }

  /** Quoted user text, cut and with control characters shown as '?', so an error message stays one line. */
  static String printable(String text) {
    String cut = text.length() > 100 ? text.substring(0, 100) + "..." : text;
    StringBuilder out = new StringBuilder(cut.length());
    cut.codePoints().forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return out.toString();
  }
}
