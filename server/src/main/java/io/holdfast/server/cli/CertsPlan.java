package io.holdfast.server.cli;

import io.holdfast.pki.ProxyIdentity;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What {@code holdfast certs} was asked for, checked: {@link CertsCommand} builds it from the options, {@link
 * CertsOutput} carries it out.
 *
 * @param secrets where the Secret manifests go, when they are asked for
 * @param snapshotKey whether to make a snapshot sealing key too
 * @param force whether existing files may be replaced
 * @param reuseCa whether to sign with the CA already in the output directory instead of making one
 */
record CertsPlan(Path outputDir, List<ProxyIdentity> proxies, List<String> serverDnsNames,
    List<InetAddress> serverAddresses, Duration caValidity, Duration validity, Optional<Secrets> secrets,
    boolean snapshotKey, boolean force, boolean reuseCa) {

  /** Namespaces of the Secrets: the server's (with deploy/'s Deployment) and the proxies'. */
  record Secrets(String serverNamespace, String proxyNamespace) {
  }
}
