package io.holdfast.server.validate;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.pipeline.PipelineSettings;
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
  private final PipelineSettings settings;

  /** Judged as a server started without flags would. */
  public ConfigValidation() {
    this(PipelineSettings.DEFAULTS);
  }

  /** Gateway API objects judged as a server with {@code --gateway-controller-name gatewayControllerName} would. */
  public ConfigValidation(String gatewayControllerName) {
    this(new PipelineSettings(gatewayControllerName));
  }

  /** Judged as a server with these pipeline settings ({@code ServeSettings.pipeline()}) would. */
  public ConfigValidation(PipelineSettings settings) {
    this.settings = java.util.Objects.requireNonNull(settings, "settings");
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
    ConfigCheck.Result checked = new ConfigCheck(settings).run(config.build());
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
    return new ValidationReport(resources, fileErrors,
        checked.problems().stream().map(Object::toString).toList());
  }

  /**
   * The status's findings with their severities, in the order (and with the reasons) the status lists them; a
   * status rejected by its Accepted condition alone leads with that condition's reason, so no rejection is shown
   * without one.
   */
  private static List<ValidationReport.Item> items(ConfigCheck.Result checked, ResourceKey key) {
    ObjectStatus status = checked.objectStatus(key).orElseThrow();
    List<ValidationReport.Item> items = new ArrayList<>();
    if (!status.isAccepted() && status.findings().stream().noneMatch(f -> f.severity() == Finding.Severity.ERROR)) {
      Condition accepted = status.condition(Condition.ACCEPTED);
      items.add(new ValidationReport.Item(Finding.Severity.ERROR, "", accepted.reason(), accepted.message()));
    }
    status.findings().forEach(f -> items.add(new ValidationReport.Item(f.severity(), f.field(), f.reason(),
        f.message())));
    return items;
  }
}
