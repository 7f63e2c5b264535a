package io.holdfast.server.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code serve --help} in sections (Config source, Kubernetes, Election, ...) instead of one list of 50 options.
 * The options stay where they are declared (the command and its mixins, some shared with validate); only the help's
 * option list is drawn by section here. An option no section names is listed under "Other", so a new option is
 * never left out of the help.
 */
final class ServeHelpSections {
  /** Section headings in the order shown, each with its options' long names in the order shown. */
  private static final Map<String, List<String>> SECTIONS = new LinkedHashMap<>();

  static {
    SECTIONS.put("Config source", List.of("--config-file", "--config-dir", "--kubernetes", "--snapshot-dir",
        "--snapshot-key-file"));
    SECTIONS.put("Kubernetes", List.of("--kube-api-url", "--watch-namespace", "--gateway-controller-name",
        "--gateway-address", "--gateway-service"));
    SECTIONS.put("Election", List.of("--identity", "--lease-namespace", "--lease-name", "--lease-duration",
        "--renew-deadline", "--retry-period", "--lock-timeout", "--leader-request-timeout", "--fence-slack",
        "--disable-leader-election", "--on-lease-loss", "--max-recovery"));
    SECTIONS.put("xDS", List.of("--xds-address", "--xds-port", "--xds-authorisation"));
    SECTIONS.put("TLS", List.of("--xds-tls-cert", "--xds-tls-key", "--xds-tls-client-ca",
        "--xds-tls-reload-interval"));
    SECTIONS.put("Admin", List.of("--admin-address", "--admin-port"));
    SECTIONS.put("Admission webhook", List.of("--webhook-address", "--webhook-port", "--webhook-tls-cert",
        "--webhook-tls-key", "--webhook-check-time", "--webhook-check-cpu-time"));
    SECTIONS.put("Limits", List.of("--max-regex-length", "--max-regex-program-size", "--max-delegation-depth",
        "--max-routes-per-virtual-host", "--xds-max-streams-per-connection", "--xds-max-message-size",
        "--xds-max-node-id-length", "--xds-max-names-per-stream", "--xds-max-connection-age",
        "--xds-max-connection-age-grace"));
    SECTIONS.put("Tenancy", List.of("--cross-namespace-refs", "--upstream-deny-cidr", "--upstream-allow-loopback",
        "--listener-port-range", "--listener-reserved-ports"));
    SECTIONS.put("Logging", List.of("--log-format"));
    SECTIONS.put("Help", List.of("--help", "--version"));
  }

  static final String OTHER = "Other";

  private ServeHelpSections() {
  }

  /** Replaces {@code serve}'s option list with the sectioned one. */
  static void install(CommandLine serve) {
    serve.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
    serve.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST,
        ServeHelpSections::render);
  }

  private static String render(Help help) {
    Map<String, List<OptionSpec>> sections = new LinkedHashMap<>();
    SECTIONS.keySet().forEach(s -> sections.put(s, new ArrayList<>()));
    sections.put(OTHER, new ArrayList<>());
    Map<String, String> sectionOf = new LinkedHashMap<>();
    SECTIONS.forEach((section, names) -> names.forEach(n -> sectionOf.put(n, section)));
    for (OptionSpec option : help.commandSpec().options()) {
      if (!option.hidden()) {
        sections.get(sectionOf.getOrDefault(option.longestName(), OTHER)).add(option);
      }
    }
    StringBuilder out = new StringBuilder();
    sections.forEach((section, options) -> {
      options.sort(java.util.Comparator.comparingInt(o -> SECTIONS.getOrDefault(section, List.of())
          .indexOf(o.longestName())));
      if (options.isEmpty()) {
        return;
      }
      out.append(String.format("%n%s:%n", section));
      Help.Layout layout = help.createDefaultLayout();
      options.forEach(o -> layout.addOption(o, help.parameterLabelRenderer()));
      out.append(layout);
    });
    return out.toString();
  }
}
