package io.holdfast.frontend.gloo;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.RouteTable;
import io.holdfast.api.SslConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.VirtualHostOptions;
import io.holdfast.api.VirtualService;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A Gloo {@code VirtualService} or {@code RouteTable} ({@code gateway.solo.io/v1}) as its Holdfast kind, with
 * Gloo's defaults and TLS semantics: no domains means {@code *}; {@code sslConfig.secretRef}'s Secret with a
 * {@code ca.crt} (or {@code sslFiles.rootCa}) requires client certificates signed by it unless {@code oneWayTls};
 * no {@code sniDomains} means the chain takes every server name, as Gloo's filter chain without a match does.
 */
final class VirtualServiceReader {

  private static final Set<String> SPEC = Set.of("virtualHost", "sslConfig", "displayName");
  private static final Set<String> HOST = Set.of("domains", "routes", "options", "optionsConfigRefs");
  private static final Set<String> HOST_OPTIONS = UpstreamReader.union(UpstreamReader.union(Set.of(
      "headerManipulation", "cors", "retries"), GlooTraffic.FIELDS), GlooSecurity.HOST_FIELDS);
  private static final Set<String> SSL = Set.of("secretRef", "sslFiles", "sniDomains", "oneWayTls", "parameters");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> FILES = Set.of("tlsCert", "tlsKey", "rootCa");
  private static final Set<String> PARAMETERS = Set.of("minimumProtocolVersion");
  private static final Set<String> TABLE = Set.of("routes", "weight");

  private VirtualServiceReader() {
  }

  static VirtualService virtualService(Metadata metadata, Node spec, GlooRoutes routes, GatewayConfig config,
      OptionObjects hostOptionObjects, EdgePolicies edge) {
    spec.only("VirtualService", SPEC);
    Node host = spec.child("virtualHost").only("virtualHost", HOST);
    List<String> domains = host.strings("domains");
    if (domains.isEmpty()) {
      domains = List.of("*"); // Gloo's default: the virtual host takes every domain
    }
    hostOptionObjects.merge(host, "VirtualHostOption", metadata.namespace());
    VirtualHostOptions options = hostOptions(host.child("options"));
    routes.hostJwtProviders(options.security().jwtProviders().stream().map(p -> p.name()).toList());
    edge.host(host.child("options")); // before the routes, which inherit it
    Optional<SslConfig> ssl = spec.has("sslConfig")
        ? Optional.of(ssl(metadata, spec.child("sslConfig"), config)) : Optional.empty();
    EdgePolicies.Host edged = edge.finish(options, routes.routes(host, "routes"), host);
    return new VirtualService(metadata, domains, edged.routes(), edged.options(), ssl, false);
  }

  /** A virtual host's {@code options} (also a VirtualHostOption's); none when absent. */
  static VirtualHostOptions hostOptions(Node hostOptions) {
    if (!hostOptions.json.isObject()) {
      return VirtualHostOptions.NONE;
    }
    hostOptions.only("virtualHost's options", GlooRoutes.union(HOST_OPTIONS, EdgePolicies.FIELDS));
    return new VirtualHostOptions(
        hostOptions.has("headerManipulation")
            ? Optional.of(GlooRoutes.headers(hostOptions.child("headerManipulation"))) : Optional.empty(),
        hostOptions.has("cors") ? Optional.of(GlooRoutes.cors(hostOptions.child("cors"))) : Optional.empty(),
        hostOptions.has("retries") ? GlooRoutes.retries(hostOptions.child("retries")) : Optional.empty(),
        GlooSecurity.host(hostOptions), GlooTraffic.read(hostOptions));
  }

  static RouteTable routeTable(Metadata metadata, Node spec, GlooRoutes routes) {
    spec.only("RouteTable", TABLE);
    return new RouteTable(metadata, routes.routes(spec, "routes"), spec.integer("weight").orElse(0));
  }

  static SslConfig ssl(Metadata metadata, Node ssl, GatewayConfig config) {
    ssl.only("sslConfig", SSL);
    boolean oneWay = ssl.bool("oneWayTls").orElse(false);
    SslConfig.CertificateSource certificate;
    Optional<SslConfig.CaSource> clientCa = Optional.empty();
    if (ssl.has("secretRef") == ssl.has("sslFiles")) {
      ssl.error(ssl.path, ssl.has("secretRef") ? Reasons.CONFLICTING_FIELDS : GlooFeatures.UNSUPPORTED,
          "an sslConfig has one of secretRef, sslFiles (sds is not supported by Holdfast)");
      certificate = new SslConfig.CertificateSource.Files("", "");
    } else if (ssl.has("secretRef")) {
      Node ref = ssl.child("secretRef").only("secretRef", REF);
      ObjectRef secret = new ObjectRef(ref.requiredString("name").orElse(""), ref.string("namespace"));
      certificate = new SslConfig.CertificateSource.SecretRef(secret);
      boolean hasCa = config.secretOf(TlsSecretData.secretKey(secret, metadata.namespace()))
          .map(d -> d.entries().containsKey(TlsSecretData.CA_CRT)).orElse(false);
      if (hasCa && !oneWay) {
        clientCa = Optional.of(new SslConfig.CaSource.SecretRef(secret)); // Gloo: ca.crt means mTLS
      }
    } else {
      Node files = ssl.child("sslFiles").only("sslFiles", FILES);
      certificate = new SslConfig.CertificateSource.Files(files.requiredString("tlsCert").orElse(""),
          files.requiredString("tlsKey").orElse(""));
      Optional<String> rootCa = files.string("rootCa").filter(p -> !p.isEmpty());
      if (rootCa.isPresent() && !oneWay) {
        clientCa = Optional.of(new SslConfig.CaSource.File(rootCa.get()));
      }
    }
    SslConfig.TlsVersion min = SslConfig.TlsVersion.TLSv1_2;
    if (ssl.has("parameters")) {
      Node parameters = ssl.child("parameters").only("TLS parameters", PARAMETERS);
      String version = parameters.string("minimumProtocolVersion").orElse("TLS_AUTO");
      switch (version) {
        case "TLSv1_3" -> min = SslConfig.TlsVersion.TLSv1_3;
        case "TLSv1_2", "TLS_AUTO" -> min = SslConfig.TlsVersion.TLSv1_2;
        default -> parameters.error(parameters.at("minimumProtocolVersion"), GlooFeatures.UNSUPPORTED,
            "minimum TLS version " + version + " is not supported by Holdfast (TLSv1_2 or TLSv1_3)");
      }
    }
    // Gloo's chain without sniDomains has no server-name match: it takes every connection (the default chain).
    List<String> sni = ssl.strings("sniDomains");
    return new SslConfig(certificate, Optional.of(sni), min, clientCa);
  }
}
