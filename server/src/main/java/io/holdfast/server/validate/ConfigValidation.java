package io.holdfast.server.validate;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.FieldPositions;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.pipeline.ReportedProblem;
import io.holdfast.server.source.ConfigFiles;
import io.holdfast.server.source.FileProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  private final ConfigLoader loader;
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
    this(settings, ConfigLoader.UnknownKinds.REJECT);
  }

  /**
   * Judged as a server with these pipeline settings would, documents of kinds Holdfast does not read rejected (as
   * the server does) or skipped and listed as notes ({@code --ignore-unknown-kinds}).
   */
  public ConfigValidation(PipelineSettings settings, ConfigLoader.UnknownKinds unknownKinds) {
    this.settings = java.util.Objects.requireNonNull(settings, "settings");
    this.loader = new ConfigLoader(unknownKinds);
  }

  /** Validates every file of {@code reads} together; each read's unreadable files become file errors. */
  public ValidationReport validate(List<ConfigFiles> reads) {
    List<ConfigLoader.Source> sources = new ArrayList<>();
    List<ReportedProblem> fileErrors = new ArrayList<>();
    Map<ResourceKey, TlsSecretData> secrets = new TreeMap<>();
    for (ConfigFiles read : reads) {
      read.contents().forEach((path, text) -> sources.add(new ConfigLoader.Source(path.toString(), text)));
      // As the config-directory source does: PEM files by path relative to the directory they were read from.
      read.tlsFiles().forEach((path, text) -> secrets.put(TlsSecretData.fileKey(path), TlsSecretData.file(text)));
      for (FileProblem problem : read.unreadable()) {
        fileErrors.add(new ReportedProblem(Finding.Severity.ERROR, ReportedProblem.UNREADABLE_FILE,
            "unreadable: " + problem.reason(), "", Optional.empty(),
            Optional.of(new ReportedProblem.Place(problem.path().toString(), 1, 1))));
      }
    }
    ConfigLoader.Loaded loaded = loader.load(sources, Map.of());
    loaded.errors().forEach(e -> fileErrors.add(ReportedProblem.of(e)));
    GatewayConfig.Builder config = loaded.config().toBuilder();
    secrets.forEach(config::secret);
    ConfigCheck.Result checked = new ConfigCheck(settings).run(config.build());
    List<ValidationReport.ResourceReport> resources = new ArrayList<>();
    checked.statuses().forEach((key, status) -> {
      List<Finding> findings = findings(checked, key);
      List<ConfigLoader.Location> at = loaded.locationsOf(key);
      if (at.isEmpty()) {
        resources.add(new ValidationReport.ResourceReport("", 0, key, status.state(),
            findings.stream().map(f -> ReportedProblem.of(key, f, Optional.empty())).toList()));
      }
      // A key declared twice is rejected as a whole: shown at each of its documents.
      for (ConfigLoader.Location l : at) {
        Map<String, FieldPositions.Position> positions = l.fields().of(findings.stream().map(Finding::field)
            .toList());
        resources.add(new ValidationReport.ResourceReport(l.source(), l.line(), key, status.state(),
            findings.stream().map(f -> {
              FieldPositions.Position p = positions.get(f.field());
              return ReportedProblem.of(key, f, Optional.of(new ReportedProblem.Place(l.source(), p.line(),
                  p.column())));
            }).toList()));
      }
    });
    return new ValidationReport(resources, fileErrors, checked.problems().stream().map(Object::toString).toList(),
        loaded.unknownKinds().stream().map(ConfigValidation::unknownKind).toList(),
        loader.unknownKinds() == ConfigLoader.UnknownKinds.SKIP);
  }

  private static ReportedProblem unknownKind(ConfigLoader.UnknownKind u) {
    return new ReportedProblem(Finding.Severity.NOTE, ReportedProblem.SKIPPED_KIND,
        u.apiVersion() + " " + u.kind() + " is not a kind Holdfast reads", "", u.key(),
        Optional.of(new ReportedProblem.Place(u.at().source(), u.at().line(), 1)));
  }

  /**
   * The status's findings, in the order (and with the reasons) the status lists them; a status rejected by its
   * Accepted condition alone leads with that condition's reason, so no rejection is shown without one.
   */
  private static List<Finding> findings(ConfigCheck.Result checked, ResourceKey key) {
    ObjectStatus status = checked.objectStatus(key).orElseThrow();
    List<Finding> findings = new ArrayList<>();
    if (!status.isAccepted() && status.findings().stream().noneMatch(f -> f.severity() == Finding.Severity.ERROR)) {
      Condition accepted = status.condition(Condition.ACCEPTED);
      findings.add(new Finding(Finding.Severity.ERROR, "", accepted.reason(), accepted.message()));
    }
    findings.addAll(status.findings());
    return findings;
  }
}
