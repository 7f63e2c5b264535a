package io.holdfast.xds.translate;

import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.GenericSecret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsCertificate;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsParameters;
import io.holdfast.ir.Listener.DownstreamTls;

/**
 * TLS termination and the SDS secrets it names. A listener's filter chain never holds key material: its
 * {@code DownstreamTlsContext} names the certificate (and the client CA) as SDS secrets fetched over ADS, so a
 * rotated certificate is a new {@code Secret} version and the listener stays byte-identical (no drain).
 */
final class TlsTranslator {

  static final String TLS_TRANSPORT_SOCKET = "envoy.transport_sockets.tls";

  private TlsTranslator() {
  }

  /** The transport socket of a TLS-terminating filter chain. */
  static TransportSocket transportSocket(DownstreamTls tls) {
    CommonTlsContext.Builder common = CommonTlsContext.newBuilder()
        .setTlsParams(TlsParameters.newBuilder().setTlsMinimumProtocolVersion(
            tls.minVersion() == io.holdfast.ir.Listener.TlsVersion.TLS_1_3
                ? TlsParameters.TlsProtocol.TLSv1_3 : TlsParameters.TlsProtocol.TLSv1_2))
        .addTlsCertificateSdsSecretConfigs(sds(tls.certificate()))
        .addAllAlpnProtocols(tls.alpn());
    tls.clientCa().ifPresent(ca -> common.setValidationContextSdsSecretConfig(sds(ca)));
    DownstreamTlsContext.Builder context = DownstreamTlsContext.newBuilder().setCommonTlsContext(common);
    if (tls.clientCa().isPresent()) {
      context.setRequireClientCertificate(com.google.protobuf.BoolValue.of(true));
    }
    return TransportSocket.newBuilder()
        .setName(TLS_TRANSPORT_SOCKET)
        .setTypedConfig(Protos.pack(context.build()))
        .build();
  }

  /** The SDS resource of an IR secret: TLS material, or a generic secret. */
  static Secret secret(io.holdfast.ir.Secret secret) {
    Secret.Builder out = Secret.newBuilder().setName(secret.name());
    if (secret.content() instanceof io.holdfast.ir.Secret.Content.CertificateAndKey pair) {
      out.setTlsCertificate(TlsCertificate.newBuilder()
          .setCertificateChain(inline(pair.certificateChainPem()))
          .setPrivateKey(inline(pair.privateKeyPem())));
    } else if (secret.content() instanceof io.holdfast.ir.Secret.Content.Generic generic) {
      // A filter's credential (OAuth2 client secret, HMAC key): Envoy's oauth2 filter reads it over SDS.
      out.setGenericSecret(GenericSecret.newBuilder().setSecret(inline(generic.value())));
    } else {
      io.holdfast.ir.Secret.Content.TrustedCa ca = (io.holdfast.ir.Secret.Content.TrustedCa) secret.content();
      out.setValidationContext(CertificateValidationContext.newBuilder().setTrustedCa(inline(ca.caPem())));
    }
    return out.build();
  }

  /** A reference to the SDS secret {@code name}, fetched over ADS. */
  static SdsSecretConfig sds(String name) {
    return SdsSecretConfig.newBuilder().setName(name).setSdsConfig(Protos.ADS).build();
  }

  private static DataSource inline(String pem) {
    return DataSource.newBuilder().setInlineString(pem).build();
  }
}
