package io.holdfast.xds.translate;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.OutlierDetection;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.type.v3.CodecClientType;
import io.envoyproxy.envoy.type.v3.Int64Range;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SubjectAltNameMatcher;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.UpstreamTls;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** The IR's cluster policies to Envoy's circuit breakers, outlier detection, health checks and upstream TLS. */
final class UpstreamPolicies {

  /** Envoy's {@code enforcing_*} fields are the percentage of detected outliers actually ejected. */
  private static final UInt32Value ALWAYS = UInt32Value.of(100);
  private static final UInt32Value NEVER = UInt32Value.of(0);
  static final String TLS_TRANSPORT_SOCKET = "envoy.transport_sockets.tls";

  private UpstreamPolicies() {
  }

  /** One threshold set at DEFAULT priority, the only one gRPC clients read (gRFC A32); unset limits keep Envoy's. */
  static CircuitBreakers circuitBreakers(Cluster.CircuitBreakers ir) {
    CircuitBreakers.Thresholds.Builder thresholds =
        CircuitBreakers.Thresholds.newBuilder().setPriority(RoutingPriority.DEFAULT);
    set(ir.maxConnections(), thresholds::setMaxConnections);
    set(ir.maxPendingRequests(), thresholds::setMaxPendingRequests);
    set(ir.maxRequests(), thresholds::setMaxRequests);
    set(ir.maxRetries(), thresholds::setMaxRetries);
    return CircuitBreakers.newBuilder().addThresholds(thresholds).build();
  }

  /**
   * Every detector's enforcement written out: Envoy enforces consecutive 5xx and success rate by default and
   * gRPC clients run success-rate ejection whenever its enforcement is not 0 (gRFC A50), so a detector the IR
   * leaves out must be switched off explicitly.
   */
  static OutlierDetection outlierDetection(Cluster.OutlierDetection ir) {
    OutlierDetection.Builder od = OutlierDetection.newBuilder()
        .setInterval(Protos.duration(ir.interval()))
        .setBaseEjectionTime(Protos.duration(ir.baseEjectionTime()))
        .setMaxEjectionPercent(UInt32Value.of(ir.maxEjectionPercent()));
    if (ir.consecutive5xx().isPresent()) {
      od.setConsecutive5Xx(UInt32Value.of(ir.consecutive5xx().get())).setEnforcingConsecutive5Xx(ALWAYS);
    } else {
      od.setEnforcingConsecutive5Xx(NEVER);
    }
    if (ir.consecutiveGatewayErrors().isPresent()) {
      od.setConsecutiveGatewayFailure(UInt32Value.of(ir.consecutiveGatewayErrors().get()))
          .setEnforcingConsecutiveGatewayFailure(ALWAYS);
    } else {
      od.setEnforcingConsecutiveGatewayFailure(NEVER);
    }
    if (ir.successRate().isPresent()) {
      Cluster.SuccessRate sr = ir.successRate().get();
      od.setSuccessRateMinimumHosts(UInt32Value.of(sr.minimumHosts()))
          .setSuccessRateRequestVolume(UInt32Value.of(sr.requestVolume()))
          .setSuccessRateStdevFactor(UInt32Value.of(sr.stdevFactorMillis()))
          .setEnforcingSuccessRate(ALWAYS);
    } else {
      od.setEnforcingSuccessRate(NEVER);
    }
    if (ir.failurePercentage().isPresent()) {
      Cluster.FailurePercentage fp = ir.failurePercentage().get();
      od.setFailurePercentageThreshold(UInt32Value.of(fp.threshold()))
          .setFailurePercentageMinimumHosts(UInt32Value.of(fp.minimumHosts()))
          .setFailurePercentageRequestVolume(UInt32Value.of(fp.requestVolume()))
          .setEnforcingFailurePercentage(ALWAYS);
    } else {
      od.setEnforcingFailurePercentage(NEVER);
    }
    return od.build();
  }

  /** HTTP probes of an HTTP/2 cluster speak HTTP/2 too: its backends may not speak HTTP/1 at all. */
  static HealthCheck healthCheck(io.holdfast.ir.HealthCheck ir, boolean http2) {
    HealthCheck.Builder check = HealthCheck.newBuilder()
        .setTimeout(Protos.duration(ir.timeout()))
        .setInterval(Protos.duration(ir.interval()))
        .setHealthyThreshold(UInt32Value.of(ir.healthyThreshold()))
        .setUnhealthyThreshold(UInt32Value.of(ir.unhealthyThreshold()));
    if (ir.probe() instanceof io.holdfast.ir.HealthCheck.Probe.Http http) {
      HealthCheck.HttpHealthCheck.Builder probe = HealthCheck.HttpHealthCheck.newBuilder().setPath(http.path());
      http.host().ifPresent(probe::setHost);
      http.expectedStatuses().forEach(range ->
          probe.addExpectedStatuses(Int64Range.newBuilder().setStart(range.start()).setEnd(range.end())));
      if (http2) {
        probe.setCodecClientType(CodecClientType.HTTP2);
      }
      check.setHttpHealthCheck(probe);
    } else if (ir.probe() instanceof io.holdfast.ir.HealthCheck.Probe.Grpc grpc) {
      HealthCheck.GrpcHealthCheck.Builder probe = HealthCheck.GrpcHealthCheck.newBuilder();
      grpc.serviceName().ifPresent(probe::setServiceName);
      check.setGrpcHealthCheck(probe);
    } else {
      check.setTcpHealthCheck(HealthCheck.TcpHealthCheck.getDefaultInstance());
    }
    return check.build();
  }

  /**
   * An {@code UpstreamTlsContext} transport socket. SYSTEM_CAS trusts the proxy's system CAs and requires the SNI
   * as a DNS subject alternative name (a chain check alone would accept any publicly trusted certificate);
   * TRUSTED_CA takes the CA from an SDS secret (a rotated CA is a new secret version, the cluster is unchanged) and
   * checks the SNI too when there is one; a client certificate is an SDS secret as on listeners. With an SDS agent
   * ({@link SdsAgents}) the CA and the certificate are fetched from the agent instead of over ADS. ALPN
   * offers the protocols written, else h2 to an HTTP/2 cluster, whose backends would otherwise be asked for
   * HTTP/1.1 over TLS.
   */
  static TransportSocket tls(UpstreamTls ir, boolean http2) {
    CommonTlsContext.Builder common = CommonTlsContext.newBuilder();
    if (!ir.alpnProtocols().isEmpty()) {
      common.addAllAlpnProtocols(ir.alpnProtocols());
    } else if (http2) {
      common.addAlpnProtocols("h2");
    }
    if (ir.verify() == UpstreamTls.Verify.SYSTEM_CAS) {
      CertificateValidationContext.Builder system = CertificateValidationContext.newBuilder()
          .setSystemRootCerts(CertificateValidationContext.SystemRootCerts.getDefaultInstance());
      names(ir, system);
      common.setValidationContext(system);
    } else if (ir.verify() == UpstreamTls.Verify.TRUSTED_CA) {
      // The CA comes over SDS like a listener's client CA; the name check stays here, merged with it by Envoy.
      CertificateValidationContext.Builder names = CertificateValidationContext.newBuilder();
      names(ir, names);
      common.setCombinedValidationContext(CommonTlsContext.CombinedCertificateValidationContext.newBuilder()
          .setDefaultValidationContext(names)
          .setValidationContextSdsSecretConfig(ir.trustedCa().map(TlsTranslator::sds).orElseGet(() ->
              SdsAgents.secret(ir.sds().flatMap(UpstreamTls.Sds::validationContextName).orElseThrow(),
                  ir.sds().orElseThrow()))));
    }
    ir.clientCertificate().ifPresent(name -> common.addTlsCertificateSdsSecretConfigs(TlsTranslator.sds(name)));
    ir.sds().ifPresent(sds -> sds.certificateSecretName().ifPresent(name ->
        common.addTlsCertificateSdsSecretConfigs(SdsAgents.secret(name, sds))));
    UpstreamTlsContext.Builder context = UpstreamTlsContext.newBuilder().setCommonTlsContext(common);
    ir.sni().ifPresent(context::setSni);
    return TransportSocket.newBuilder().setName(TLS_TRANSPORT_SOCKET).setTypedConfig(Protos.pack(context.build()))
        .build();
  }

  /**
   * The names the certificate must carry: the given subject alternative names, each of any type (as Envoy's
   * untyped {@code match_subject_alt_names} did), else the SNI as a DNS name.
   */
  private static void names(UpstreamTls ir, CertificateValidationContext.Builder context) {
    if (ir.subjectAltNames().isEmpty()) {
      ir.sni().ifPresent(sni -> context.addMatchTypedSubjectAltNames(sanMatcher(sni)));
      return;
    }
    for (String name : ir.subjectAltNames()) {
      for (SubjectAltNameMatcher.SanType type : List.of(SubjectAltNameMatcher.SanType.DNS,
          SubjectAltNameMatcher.SanType.URI, SubjectAltNameMatcher.SanType.EMAIL,
          SubjectAltNameMatcher.SanType.IP_ADDRESS)) {
        context.addMatchTypedSubjectAltNames(SubjectAltNameMatcher.newBuilder().setSanType(type)
            .setMatcher(StringMatcher.newBuilder().setExact(name)));
      }
    }
  }

  private static SubjectAltNameMatcher sanMatcher(String dnsName) {
    return SubjectAltNameMatcher.newBuilder().setSanType(SubjectAltNameMatcher.SanType.DNS)
        .setMatcher(StringMatcher.newBuilder().setExact(dnsName)).build();
  }

  private static void set(Optional<Integer> value, Consumer<UInt32Value> setter) {
    value.ifPresent(v -> setter.accept(UInt32Value.of(v)));
  }
}
