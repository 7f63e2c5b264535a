package io.holdfast.frontend.gloo;

import io.holdfast.api.Reasons;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo Enterprise's {@code AuthConfig} ({@code enterprise.gloo.solo.io/v1}), which {@code extauth.configRef}
 * options name. Gloo hands an AuthConfig to Solo's extauth service, which runs its {@code configs} for Envoy. Only
 * one config type has an upstream-Envoy meaning: {@code passThroughAuth.grpc}, where Solo's service only forwards
 * Envoy's {@code Authorization/Check} call to a server of the caller's ({@code address}); Holdfast sends Envoy's
 * call to that server directly. Every other type needs Solo's service (OAuth2/OIDC login with discovery from the
 * issuer, API keys, OPA, LDAP, plugins, HMAC) or is being built in Holdfast (basic authentication), and rejects the
 * AuthConfig with {@link GlooFeatures#UNSUPPORTED} naming it.
 */
final class AuthConfigReader {

  /** Gloo's timeout for a pass-through gRPC server ({@code connectionTimeout}'s default). */
  static final Duration PASS_THROUGH_TIMEOUT = Duration.ofSeconds(5);

  private static final Set<String> SPEC = Set.of("configs", "booleanExpr", "failOnRedirect");
  private static final Set<String> CONFIG = Set.of("name", "passThroughAuth", "basicAuth", "oauth", "oauth2",
      "apiKeyAuth", "pluginAuth", "opaAuth", "ldap", "ldapInternal", "jwt", "hmacAuth", "opaServerAuth");
  private static final Set<String> PASS_THROUGH = Set.of("grpc", "http", "config", "failureModeAllow");
  private static final Set<String> GRPC = Set.of("address", "connectionTimeout", "tlsConfig", "retryPolicy");

  /** A pass-through gRPC authorisation server: Envoy asks it directly. */
  record PassThrough(String host, int port, Duration timeout, boolean failureModeAllow) {
  }

  private AuthConfigReader() {
  }

  /** The AuthConfig's server; empty with an error in {@code spec}'s findings when it cannot be honoured. */
  static Optional<PassThrough> read(Node spec) {
    spec.only("AuthConfig", SPEC);
    if (spec.string("booleanExpr").filter(e -> !e.isEmpty()).isPresent()) {
      spec.error(spec.at("booleanExpr"), GlooFeatures.UNSUPPORTED, "booleanExpr combines configs in Solo's extauth"
          + " service; Holdfast asks one authorisation server");
    }
    // failOnRedirect only changes how Solo's service answers an OIDC login redirect; no config read here has one.
    spec.bool("failOnRedirect");
    List<Node> configs = spec.list("configs");
    if (configs.isEmpty()) {
      spec.error(spec.at("configs"), Reasons.MISSING_FIELD, "an AuthConfig needs one config");
      return Optional.empty();
    }
    if (configs.size() > 1) {
      spec.error(spec.at("configs"), GlooFeatures.UNSUPPORTED, configs.size() + " configs: a chain of configs is"
          + " run by Solo's extauth service; Holdfast reads an AuthConfig with one passThroughAuth config");
      return Optional.empty();
    }
    Node config = configs.get(0).only("AuthConfig's config", CONFIG);
    config.string("name"); // a name only labels the config in Solo's logs and boolean expressions
    for (String type : CONFIG) {
      if (!type.equals("name") && !type.equals("passThroughAuth") && config.has(type)) {
        config.error(config.at(type), GlooFeatures.UNSUPPORTED, why(type));
      }
    }
    if (!config.has("passThroughAuth")) {
      if (CONFIG.stream().noneMatch(t -> !t.equals("name") && config.has(t))) {
        config.error(config.path, Reasons.MISSING_FIELD, "a config has one auth type");
      }
      return Optional.empty();
    }
    Node passThrough = config.child("passThroughAuth").only("passThroughAuth", PASS_THROUGH);
    if (passThrough.has("config")) {
      passThrough.error(passThrough.at("config"), GlooFeatures.UNSUPPORTED, "config is sent to the server by Solo's"
          + " extauth service, inside its own request; Envoy's Authorization/Check call has no place for it");
    }
    if (passThrough.has("http")) {
      passThrough.error(passThrough.at("http"), GlooFeatures.UNSUPPORTED, "passThroughAuth.http: Solo's extauth"
          + " service POSTs its own JSON request to the URL; Envoy's HTTP authorisation call sends the client's"
          + " method, path and headers instead, which a server written for Gloo would not understand");
    }
    if (!passThrough.has("grpc")) {
      if (!passThrough.has("http")) {
        passThrough.error(passThrough.path, Reasons.MISSING_FIELD, "passThroughAuth has one of grpc, http");
      }
      return Optional.empty();
    }
    Node grpc = passThrough.child("grpc").only("passThroughAuth.grpc", GRPC);
    if (grpc.has("tlsConfig")) {
      grpc.error(grpc.at("tlsConfig"), GlooFeatures.UNSUPPORTED, "TLS to a pass-through server is not supported by"
          + " Holdfast yet; the AuthConfig is rejected rather than sent in plaintext");
    }
    if (grpc.has("retryPolicy")) {
      grpc.error(grpc.at("retryPolicy"), GlooFeatures.UNSUPPORTED, "retries of the authorisation call are not"
          + " supported by Holdfast");
    }
    Duration timeout = grpc.duration("connectionTimeout").orElse(PASS_THROUGH_TIMEOUT);
    boolean failureModeAllow = passThrough.bool("failureModeAllow").orElse(false);
    String address = grpc.requiredString("address").orElse("");
    int colon = address.lastIndexOf(':');
    String host = colon > 0 ? address.substring(0, colon) : "";
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    String port = colon > 0 ? address.substring(colon + 1) : "";
    if (host.isEmpty() || !port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
      grpc.error(grpc.at("address"), Reasons.INVALID_ADDRESS, "\"" + address + "\" is not ADDRESS:PORT");
      return Optional.empty();
    }
    return Optional.of(new PassThrough(host, Integer.parseInt(port), timeout, failureModeAllow));
  }

  private static String why(String type) {
    return switch (type) {
      case "basicAuth" -> "basicAuth is run by Solo's extauth service; Holdfast's own basic authentication (Envoy's"
          + " basic_auth filter) is being added and does not read Gloo's AuthConfig yet";
      case "oauth", "oauth2" -> type + " (OAuth2/OIDC login) needs Solo's extauth service (it discovers the"
          + " provider from issuerUrl at run time and keeps sessions); Holdfast has no upstream-Envoy equivalent yet";
      case "jwt" -> "jwt in an AuthConfig only marks JWT in Solo's boolean expressions; use the jwt option";
      default -> type + " needs Solo's extauth service and has no upstream-Envoy equivalent in Holdfast";
    };
  }
}
