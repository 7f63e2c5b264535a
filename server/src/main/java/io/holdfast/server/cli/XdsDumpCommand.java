package io.holdfast.server.cli;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.TlsChannelCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.holdfast.common.Durations;
import io.holdfast.pki.Pem;
import io.holdfast.server.dump.AdsDump;
import io.holdfast.server.dump.ConfigDump;
import io.holdfast.server.fleet.ReplicaAddresses;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code holdfast xds-dump --xds HOST:PORT --node NAME}: what a running replica serves to a node, fetched as
 * an xDS client over the replica's own serving path ({@link AdsDump}), so per-proxy scoping and authorisation
 * apply exactly as to that proxy; secrets redacted. With {@code --xds-authorisation proxy-identity} the replica
 * serves the proxy its client certificate names, so give that proxy's certificate and key.
 */
@Command(
    name = "xds-dump",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {"Print what a running replica serves to a node (listeners, routes, clusters, endpoints,"
        + " secrets with private keys redacted), asked over its xDS port as that node would ask.",
        "Exit status: 0 every type answered, 1 the stream failed or a type was not answered in time, 2 usage"
            + " error."})
final class XdsDumpCommand implements Callable<Integer> {

  @Spec
  private CommandSpec spec;

  @Option(names = "--xds", required = true, paramLabel = "HOST:PORT", description = "The replica's xDS address.")
  private String xds;

  @Option(names = "--node", required = true, paramLabel = "ID",
      description = "The node id to ask as (it shows on the replica's page while the dump runs).")
  private String node;

  @Option(names = "--ca", paramLabel = "FILE",
      description = "PEM CA bundle the replica's serving certificate is checked against; turns TLS on.")
  private Path ca;

  @Option(names = "--cert", paramLabel = "FILE",
      description = "PEM client certificate (a proxy's, for proxy-identity authorisation); needs --ca and --key.")
  private Path cert;

  @Option(names = "--key", paramLabel = "FILE", description = "PEM private key of --cert.")
  private Path key;

  @Option(names = "--authority", paramLabel = "NAME",
      description = "The server name to verify, when it differs from the host of --xds"
          + " (e.g. holdfast-xds.holdfast-system.svc).")
  private String authority;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s",
      description = "How long the whole dump may take (default: ${DEFAULT-VALUE}).")
  private String timeout;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "yaml",
      description = "yaml or json (default: ${DEFAULT-VALUE}).")
  private String output;

  @Override
  public Integer call() throws InterruptedException {
    ConfigDump.Format format;
    Duration deadline;
    ChannelCredentials credentials;
    String address;
    try {
      format = ConfigDump.Format.parse(output);
      deadline = Durations.parse("--timeout", timeout);
      address = ReplicaAddresses.checkReplica(xds);
      credentials = credentials();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage().replace("--replica", "--xds"), e);
    }
    int colon = address.lastIndexOf(':');
    String host = address.substring(0, colon).replaceAll("^\\[|]$", "");
    ManagedChannelBuilder<?> builder = Grpc.newChannelBuilderForAddress(host,
        Integer.parseInt(address.substring(colon + 1)), credentials);
    if (authority != null) {
      builder.overrideAuthority(authority);
    }
    ManagedChannel channel = builder.build();
    AdsDump.Result result;
    try {
      result = AdsDump.fetch(channel, node, deadline);
    } finally {
      channel.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (result.failure().isPresent()) {
      err.println("holdfast xds-dump: the xDS stream failed: " + result.failure().get().getCode()
          + (result.failure().get().getDescription() == null ? "" : ": " + result.failure().get().getDescription()));
    }
    if (result.failure().isEmpty() || !result.resources().isEmpty()) {
      Map<String, Object> header = new LinkedHashMap<>();
      header.put("xds", address);
      header.put("node", node);
      Map<String, String> versions = new LinkedHashMap<>();
      result.versions().forEach((type, version) -> versions.put(type.substring(type.lastIndexOf('.') + 1),
          version));
      header.put("versions", versions);
      if (!result.unanswered().isEmpty()) {
        header.put("unanswered", List.copyOf(result.unanswered()));
      }
      out.print(ConfigDump.render(ConfigDump.document(header, result.resources()), format));
      out.flush();
    }
    result.unanswered().forEach(t -> err.println("holdfast xds-dump: no answer for " + t + " within "
        + deadline.toMillis() + " ms"));
    err.flush();
    return result.failure().isEmpty() && result.unanswered().isEmpty() ? HoldfastCli.EXIT_OK
        : HoldfastCli.EXIT_FAILURE;
  }

  private ChannelCredentials credentials() {
    if (ca == null) {
      if (cert != null || key != null) {
        throw new IllegalArgumentException("--cert and --key need --ca (TLS)");
      }
      return InsecureChannelCredentials.create();
    }
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException("give --cert and --key together");
    }
    try {
      TlsChannelCredentials.Builder tls = TlsChannelCredentials.newBuilder().trustManager(trust(read(ca)));
      if (cert != null) {
        AdvancedTlsX509KeyManager keys = new AdvancedTlsX509KeyManager();
        keys.updateIdentityCredentials(Pem.certificates(read(cert)).toArray(new X509Certificate[0]),
            Pem.privateKey(read(key)));
        tls.keyManager(keys);
      }
      return tls.build();
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("TLS files: " + e.getMessage(), e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static javax.net.ssl.TrustManager trust(String pem) throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    try {
      store.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException(e);
    }
    int i = 0;
    for (X509Certificate c : Pem.caBundle(pem)) {
      store.setCertificateEntry("ca-" + i++, c);
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return factory.getTrustManagers()[0];
  }
}
