package io.holdfast.xds.server;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whose view each xDS call is served ({@link Viewer}) and hands it to the call's handler through
 * {@link #VIEWER}. Under {@link XdsAuthorisation#NONE} every call sees everything. Under
 * {@link XdsAuthorisation#PROXY_IDENTITY} the viewer is the proxy named by the TLS peer certificate
 * ({@link ProxyIdentity}); a call without one (plaintext, no certificate, or a certificate naming no proxy) is
 * closed with PERMISSION_DENIED before any of its requests is read, and counted as
 * {@link Refusal#NO_PROXY_IDENTITY}.
 */
final class ProxyAuthorisation implements ServerInterceptor {

  private static final Logger log = LoggerFactory.getLogger(ProxyAuthorisation.class);

  /** The calling stream's viewer; absent only on a call that did not pass through this interceptor. */
  static final Context.Key<Viewer> VIEWER = Context.key("holdfast-xds-viewer");

  private final XdsAuthorisation mode;
  private final XdsMetrics metrics;

  ProxyAuthorisation(XdsAuthorisation mode, XdsMetrics metrics) {
    this.mode = mode;
    this.metrics = metrics;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    Viewer viewer;
    if (mode == XdsAuthorisation.NONE) {
      viewer = Viewer.EVERYTHING;
    } else {
      Optional<String> proxy = peerCertificate(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION))
          .flatMap(ProxyIdentity::of);
      if (proxy.isEmpty()) {
        metrics.refused(Refusal.NO_PROXY_IDENTITY);
        log.warn("xDS stream refused: no proxy identity: remote={} method={}",
            call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR), call.getMethodDescriptor().getFullMethodName());
        call.close(Status.PERMISSION_DENIED.withDescription(Refusal.NO_PROXY_IDENTITY.label()
            + ": the client certificate names no proxy (a URI SAN spiffe://<trust-domain>/proxy/<name>, or a"
            + " subject CN)"), new Metadata());
        return new ServerCall.Listener<>() {
        };
      }
      viewer = Viewer.proxy(proxy.get());
    }
    return Contexts.interceptCall(Context.current().withValue(VIEWER, viewer), call, headers, next);
  }

  private static Optional<X509Certificate> peerCertificate(SSLSession session) {
    if (session == null) {
      return Optional.empty();
    }
    try {
      Certificate[] chain = session.getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate leaf ? Optional.of(leaf) : Optional.empty();
    } catch (SSLPeerUnverifiedException e) {
      return Optional.empty();
    }
  }
}
