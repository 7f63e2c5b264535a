package io.holdfast.server.cli;

import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.server.dump.ConfigDump;
import io.holdfast.server.dump.OfflineTranslation;
import io.holdfast.xds.snapshot.ProxyScopes;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code holdfast translate DIR}: the Envoy config a config directory produces, offline, through the server's own
 * reader and pipeline ({@link OfflineTranslation}); secrets redacted. Exit 0 when every resource was accepted,
 * 1 when something was rejected or unreadable (the rest is still printed) or nothing could be built, 2 on usage
 * errors.
 */
@Command(
    name = "translate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {"Print the Envoy config (listeners, routes, clusters, endpoints, secrets with private keys"
        + " redacted) that a config directory produces, as serve --config-dir would serve it. Offline: no cluster,"
        + " no server.",
        "Exit status: 0 all accepted, 1 something rejected or unreadable (left out of the output), 2 usage error."})
final class TranslateCommand implements Callable<Integer> {

  @Spec
  private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DIR", description = "A config directory, as serve --config-dir reads it.")
  private Path directory;

  @Option(names = "--proxy", paramLabel = "NAME",
      description = "Only what the proxy of this name is served (its Gateways' listeners and what they use),"
          + " as with serve --xds-authorisation proxy-identity.")
  private String proxy;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "yaml",
      description = "yaml or json (default: ${DEFAULT-VALUE}).")
  private String output;

  /** The serve options the translation depends on, from the same flags, environment and file as serve's. */
  @Mixin
  private PipelineOptions pipeline = new PipelineOptions();

  @Option(names = "--config-file", paramLabel = "FILE",
      description = "The serve settings file (YAML), read as serve reads it (flag > environment > file > default)."
          + " Env: HOLDFAST_CONFIG_FILE.")
  private Path configFile;

  @Mixin
  private LimitOptions limits = new LimitOptions();

  @Override
  public Integer call() throws IOException {
    ConfigDump.Format format;
    PipelineSettings settings;
    try {
      format = ConfigDump.Format.parse(output);
      settings = pipeline.settings().withLimits(limits.limits(name -> "--" + name));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (!Files.isDirectory(directory)) {
      throw new ParameterException(spec.commandLine(), "'" + directory + "' is not a directory");
    }
    OfflineTranslation translation = OfflineTranslation.of(directory, settings, Clock.systemUTC());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (translation.snapshot().isEmpty()) {
      err.println("holdfast translate: nothing was built: " + translation.lastBuild()
          .flatMap(b -> b.problems().stream().findFirst()).map(Object::toString).orElse("no config"));
      err.flush();
      return HoldfastCli.EXIT_FAILURE;
    }
    XdsSnapshot snapshot = translation.snapshot().get();
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("version", snapshot.version());
    Map<String, ? extends Map<String, ? extends com.google.protobuf.Message>> resources = snapshot.resources();
    if (proxy != null) {
      ProxyScopes scopes = snapshot.scopes();
      ProxyScopes.Scope scope = scopes.of(proxy).orElseThrow(() -> new ParameterException(spec.commandLine(),
          "no Gateway of this config is served by proxy '" + proxy + "'; its proxies: "
              + (scopes.byProxy().isEmpty() ? "none" : String.join(", ", scopes.byProxy().keySet()))));
      header.put("proxy", proxy);
      resources = ConfigDump.filter(resources, scope::contains);
    } else {
      header.put("proxies", scopes(snapshot));
    }
    out.print(ConfigDump.render(ConfigDump.document(header, resources), format));
    out.flush();
    translation.rejected().forEach(r -> err.println("holdfast translate: rejected, left out: " + r));
    translation.manifestErrors().forEach(m -> err.println("holdfast translate: unreadable: " + m));
    translation.lastBuild().ifPresent(b -> b.problems().forEach(p -> err.println("holdfast translate: " + p)));
    err.flush();
    boolean clean = translation.rejected().isEmpty() && translation.manifestErrors().isEmpty()
        && translation.lastBuild().map(b -> b.problems().isEmpty()).orElse(true);
    return clean ? HoldfastCli.EXIT_OK : HoldfastCli.EXIT_FAILURE;
  }

  private static java.util.List<String> scopes(XdsSnapshot snapshot) {
    return java.util.List.copyOf(snapshot.scopes().byProxy().keySet());
  }
}
