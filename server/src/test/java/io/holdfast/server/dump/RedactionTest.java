package io.holdfast.server.dump;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.GenericSecret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsCertificate;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class RedactionTest {
  private static final TlsCertificate PAIR = TlsCertificate.newBuilder()
      .setCertificateChain(DataSource.newBuilder().setInlineString("-----BEGIN CERTIFICATE-----public"))
      .setPrivateKey(DataSource.newBuilder().setInlineString("-----BEGIN PRIVATE KEY-----secret"))
      .build();

  @Test
  void aSecretsPrivateKeyIsRedactedAndItsCertificateKept() {
    JsonNode json = ConfigDump.json(Secret.newBuilder().setName("s").setTlsCertificate(PAIR).build());

    assertThat(json.at("/tls_certificate/private_key/inline_string").asString()).isEqualTo("[redacted]");
    assertThat(json.at("/tls_certificate/certificate_chain/inline_string").asString())
        .isEqualTo("-----BEGIN CERTIFICATE-----public");
    assertThat(json.toString()).doesNotContain("secret");
  }

  @Test
  void aKeyInlinedInAClustersPackedTransportSocketIsRedactedToo() {
    Cluster cluster = Cluster.newBuilder().setName("c").setTransportSocket(TransportSocket.newBuilder()
        .setName("envoy.transport_sockets.tls").setTypedConfig(Any.pack(UpstreamTlsContext.newBuilder()
            .setSni("api.test").setCommonTlsContext(CommonTlsContext.newBuilder().addTlsCertificates(PAIR))
            .build()))).build();

    JsonNode json = ConfigDump.json(cluster);

    JsonNode tls = json.at("/transport_socket/typed_config");
    assertThat(tls.path("@type").asString()).endsWith("UpstreamTlsContext");
    assertThat(tls.path("sni").asString()).isEqualTo("api.test");
    assertThat(tls.at("/common_tls_context/tls_certificates/0/private_key/inline_string").asString())
        .isEqualTo("[redacted]");
    assertThat(json.toString()).doesNotContain("PRIVATE KEY");
  }

  @Test
  void genericSecretsAndBytesAreRedacted() {
    JsonNode json = ConfigDump.json(Secret.newBuilder().setName("g").setGenericSecret(GenericSecret.newBuilder()
        .setSecret(DataSource.newBuilder().setInlineBytes(ByteString.copyFromUtf8("hunter2")))).build());

    assertThat(json.toString()).doesNotContain("aHVudGVyMg").contains("name\":\"g");
    assertThat(json.at("/generic_secret/secret/inline_bytes").asString())
        .isEqualTo(java.util.Base64.getEncoder().encodeToString("[redacted]".getBytes()));
  }

  @Test
  void aPackedTypeThisJvmDoesNotKnowIsReplacedByAMarkerNeverPrintedRaw() {
    Cluster cluster = Cluster.newBuilder().setName("c").setTransportSocket(TransportSocket.newBuilder()
        .setName("x").setTypedConfig(Any.newBuilder().setTypeUrl("type.googleapis.com/example.Unknown")
            .setValue(ByteString.copyFromUtf8("opaque-bytes")))).build();

    JsonNode json = ConfigDump.json(cluster);

    assertThat(json.at("/transport_socket/typed_config/value/holdfastUnknownType").asString())
        .isEqualTo("type.googleapis.com/example.Unknown");
    assertThat(json.toString()).doesNotContain("opaque");
  }

  @Test
  void basicAuthUsersInAListenersPackedFilterAreRedacted() {
    io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager hcm =
        io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager.newBuilder()
            .addHttpFilters(io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter
                .newBuilder().setName("envoy.filters.http.basic_auth/default/api").setDisabled(true)
                .setTypedConfig(Any.pack(io.envoyproxy.envoy.extensions.filters.http.basic_auth.v3.BasicAuth
                    .newBuilder().setUsers(DataSource.newBuilder()
                        .setInlineString("alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=\n"))
                    .setForwardUsernameHeader("x-user").build())))
            .build();

    JsonNode json = ConfigDump.json(hcm);

    JsonNode basic = json.at("/http_filters/0/typed_config");
    assertThat(basic.at("/users/inline_string").asString()).isEqualTo("[redacted]");
    assertThat(basic.path("forward_username_header").asString()).isEqualTo("x-user");
    assertThat(json.toString()).doesNotContain("g2YDYHBhl9R").doesNotContain("alice");
  }
}
