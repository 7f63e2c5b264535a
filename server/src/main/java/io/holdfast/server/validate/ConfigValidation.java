package io.holdfast.server.validate;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.server.source.ConfigFiles;
import io.holdfast.server.source.FileProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Validates config files as the server would serve them: the texts are loaded together into one config (so
 * references across files resolve, as in one config directory) by the server's {@link ConfigLoader}, and the
 * verdicts come from the pipeline's own {@link ConfigCheck}, front end and IR builder included (duplicate
 * listeners and domains). The verdicts are those of a freshly started server: there is no last accepted version
 * to keep serving. PEM files are the secrets sslConfigs name by path relative to the directory each read came
 * from, as in file mode; Kubernetes Secrets are not looked up. Needs no cluster and starts nothing.
 */
public final class ConfigValidation {
  private final ConfigLoader loader = new ConfigLoader();
  private final String gatewayControllerName;
  private final InputLimits limits;

  /** Gateway API objects judged under the default controller name. */
  public ConfigValidation() {
    this(io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME);
  }

  /** Gateway API objects judged as a server with {@code --gateway-controller-name gatewayControllerName} would. */
  public ConfigValidation(String gatewayControllerName) {
    this(gatewayControllerName, InputLimits.DEFAULTS);
  }

  /** As above, with the bounds of a server given the same limit options. */
  public ConfigValidation(String gatewayControllerName, InputLimits limits) {
    this.gatewayControllerName = java.util.Objects.requireNonNull(gatewayControllerName, "gatewayControllerName");
    this.limits = java.util.Objects.requireNonNull(limits, "limits");
  }

  /** Validates every file of {@code reads} together; each read's unreadable files become file errors. */
  public ValidationReport validate(List<ConfigFiles> reads) {
    List<ConfigLoader.Source> sources = new ArrayList<>();
    List<ValidationReport.FileError> fileErrors = new ArrayList<>();
    Map<ResourceKey, TlsSecretData> secrets = new TreeMap<>();
    for (ConfigFiles read : reads) {
      read.contents().forEach((path, text) -> sources.add(new ConfigLoader.Source(path.toString(), text)));
      // As the config-directory source does: PEM files by path relative to the directory they were read from.
      read.tlsFiles().forEach((path, text) -> secrets.put(TlsSecretData.fileKey(path), TlsSecretData.file(text)));
      for (FileProblem problem : read.unreadable()) {
        fileErrors.add(new ValidationReport.FileError(problem.path().toString(), 1, 1,
            "unreadable: " + problem.reason()));
      }
    }
    ConfigLoader.Loaded loaded = loader.load(sources, Map.of());
    for (ManifestError e : loaded.errors()) {
      fileErrors.add(new ValidationReport.FileError(e.source(), e.line(), e.column(), e.reason()));
    }
    GatewayConfig.Builder config = loaded.config().toBuilder();
    secrets.forEach(config::secret);
    ConfigCheck.Result checked = new ConfigCheck(gatewayControllerName, limits).run(config.build());
    List<ValidationReport.ResourceReport> resources = new ArrayList<>();
    checked.statuses().forEach((key, status) -> {
      List<ValidationReport.Item> items = items(checked, key);
      List<ConfigLoader.Location> at = loaded.locationsOf(key);
      if (at.isEmpty()) {
        resources.add(new ValidationReport.ResourceReport("", 0, key, status.state(), items));
      }
      // A key declared twice is rejected as a whole: shown at each of its documents.
      at.forEach(l -> resources.add(new ValidationReport.ResourceReport(l.source(), l.line(), key, status.state(),
          items)));
    });
    return new ValidationReport(resources, fileErrors);
  }

  /** The status's findings with their severities, in the order (and with the reasons) the status lists them. */
  private static List<ValidationReport.Item> items(ConfigCheck.Result checked, ResourceKey key) {
    ObjectStatus status = checked.objectStatus(key).orElseThrow();
    return status.findings().stream()
        .map(f -> new ValidationReport.Item(f.severity(), f.field(), f.reason(), f.message())).toList();
  }
}
