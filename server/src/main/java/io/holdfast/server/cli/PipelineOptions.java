package io.holdfast.server.cli;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Cidr;
import io.holdfast.pipeline.PipelineSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * The options every verdict depends on ({@link PipelineSettings}), mixed into both {@code serve} and
 * {@code validate}: one declaration, read from the same flags, environment variables and {@code --config-file}
 * entries, so {@code holdfast validate} judges a config exactly as the server it is meant for (whose webhook takes
 * the same value from {@link ServeSettings#pipeline()}). A verdict-changing option belongs here, never in one
 * command alone.
 */
final class PipelineOptions {

  @Option(names = "--gateway-controller-name", paramLabel = "NAME",
      defaultValue = ServeSettings.DEFAULT_GATEWAY_CONTROLLER_NAME,
      description = "Kubernetes Gateway API: the controllerName of the GatewayClasses Holdfast programs, under which"
          + " it writes route statuses (default: ${DEFAULT-VALUE}).")
  String gatewayControllerName;

  @Option(names = "--cross-namespace-refs", paramLabel = "allow|grant", defaultValue = "allow",
      description = "Holdfast kinds: whether routes may name Upstreams, and VirtualServices and RouteTables delegate"
          + " to RouteTables, of other namespaces freely (allow, Gloo Edge's behaviour) or only with a"
          + " ReferenceGrant there (grant); refused: RefNotPermitted. Secrets always need a grant"
          + " (default: ${DEFAULT-VALUE}).")
  String crossNamespaceRefs;

  @Option(names = "--upstream-deny-cidr", paramLabel = "CIDR", split = ",",
      description = "Static upstream addresses refused (AddressNotPermitted) besides the built-in 169.254.0.0/16,"
          + " fe80::/10, 0.0.0.0/8, :: and, unless --upstream-allow-loopback, 127.0.0.0/8 and ::1; repeatable.")
  List<String> upstreamDenyCidrs;

  @Option(names = "--upstream-allow-loopback", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
      description = "Accept static upstreams on loopback (127.0.0.0/8, ::1, localhost). Default: true for serve"
          + " --config-dir and validate (one development machine), false for serve --kubernetes (an upstream on"
          + " loopback is the proxy itself, whose admin port it would reach).")
  String upstreamAllowLoopback;

  @Option(names = "--listener-port-range", paramLabel = "MIN-MAX",
      defaultValue = AccessPolicy.DEFAULT_MIN_LISTENER_PORT + "-" + AccessPolicy.DEFAULT_MAX_LISTENER_PORT,
      description = "Ports Gateways and TcpGateways may listen on; others are PortNotPermitted. Below 1024 needs a"
          + " privilege the proxy should not have (default: ${DEFAULT-VALUE}).")
  String listenerPortRange;

  @Option(names = "--listener-reserved-ports", paramLabel = "PORT", split = ",", defaultValue = "19000",
      description = "Ports no Gateway or TcpGateway may take (PortNotPermitted), e.g. the proxy's admin port;"
          + " repeatable, or comma-separated; an empty value reserves none (default: ${DEFAULT-VALUE}).")
  List<String> listenerReservedPorts;

  /**
   * The settings these options give, in file mode (as {@code validate} judges).
   *
   * @throws IllegalArgumentException naming the option and what it allows
   */
  PipelineSettings settings() {
    return new PipelineSettings(ServeSettings.requireControllerName(gatewayControllerName),
        io.holdfast.api.InputLimits.DEFAULTS, access(name -> "--" + name, false));
  }

  /**
   * The access policy these options give.
   *
   * @param origin         how to name a setting in an error (the flag, or the variable or file entry it came from)
   * @param kubernetesMode whether the server reads Kubernetes (loopback upstreams then refused unless allowed)
   * @throws IllegalArgumentException naming the setting and what it allows
   */
  AccessPolicy access(UnaryOperator<String> origin, boolean kubernetesMode) {
    AccessPolicy.CrossNamespaceRefs refs = AccessPolicy.CrossNamespaceRefs.parse(
        origin.apply("cross-namespace-refs"), crossNamespaceRefs);
    boolean loopback = upstreamAllowLoopback == null ? !kubernetesMode
        : bool(origin.apply("upstream-allow-loopback"), upstreamAllowLoopback);
    List<Cidr> denied = new ArrayList<>(AccessPolicy.LINK_LOCAL_AND_UNSPECIFIED);
    if (!loopback) {
      denied.addAll(0, AccessPolicy.LOOPBACK);
    }
    for (String text : upstreamDenyCidrs == null ? List.<String>of() : upstreamDenyCidrs) {
      if (!text.isBlank()) {
        try {
          denied.add(Cidr.parse(text));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(origin.apply("upstream-deny-cidr") + ": " + e.getMessage(), e);
        }
      }
    }
    String range = origin.apply("listener-port-range");
    String[] bounds = listenerPortRange.trim().split("-", -1);
    if (bounds.length != 2) {
      throw new IllegalArgumentException(range + " must be MIN-MAX within 1-65535, got '" + listenerPortRange + "'");
    }
    int min = port(range, bounds[0]);
    int max = port(range, bounds[1]);
    if (min > max) {
      throw new IllegalArgumentException(range + " must be MIN-MAX with MIN not above MAX, got '"
          + listenerPortRange + "'");
    }
    Set<Integer> reserved = new TreeSet<>();
    for (String text : listenerReservedPorts == null ? List.<String>of() : listenerReservedPorts) {
      if (!text.isBlank()) {
        reserved.add(port(origin.apply("listener-reserved-ports"), text));
      }
    }
    return new AccessPolicy(refs, denied, min, max, reserved);
  }

  private static int port(String setting, String text) {
    try {
      int port = Integer.parseInt(text.trim());
      if (port >= 1 && port <= ServeSettings.MAX_PORT) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(setting + ": '" + text + "' is not a port (1-65535)");
  }

  private static boolean bool(String setting, String text) {
    return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(setting + " must be true or false, got '" + text + "'");
    };
  }
}
