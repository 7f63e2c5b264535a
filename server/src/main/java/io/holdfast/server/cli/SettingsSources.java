package io.holdfast.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Where a {@code serve} setting comes from when it is not on the command line: the environment first, then
 * the optional config file, then the built-in default. So the precedence is flag > env > file > default.
 *
 * <p>Each option {@code --some-flag} is read from {@code HOLDFAST_SOME_FLAG}; the election and namespace
 * options also answer to the names Gloo Edge uses ({@link #ALIASES}). The config file is YAML whose keys are
 * option names without the dashes ({@code xds-port: 18000}); an unknown key is an error, not ignored.
 */
final class SettingsSources implements IDefaultValueProvider {
  /** Environment names besides {@code HOLDFAST_*}, for users coming from Gloo Edge and Kubernetes manifests. */
  static final Map<String, List<String>> ALIASES = Map.of(
      "identity", List.of("POD_NAME"),
      "lease-namespace", List.of("POD_NAMESPACE"),
      "lease-duration", List.of("LEADER_ELECTION_LEASE_DURATION"),
      "renew-deadline", List.of("LEADER_ELECTION_RENEW_PERIOD"),
      "retry-period", List.of("LEADER_ELECTION_RETRY_PERIOD"),
      "disable-leader-election", List.of("DISABLE_LEADER_ELECTION"),
      "max-recovery", List.of("MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER"));

  private final Map<String, String> env;
  private final Map<String, String> file;
  private final Optional<Path> filePath;
  private final Map<String, String> origins = new LinkedHashMap<>();

  private SettingsSources(Map<String, String> env, Map<String, String> file, Optional<Path> filePath) {
    this.env = env;
    this.file = file;
    this.filePath = filePath;
  }

  /**
   * Reads the config file named by {@code --config-file} in {@code args} (or {@code HOLDFAST_CONFIG_FILE}).
   *
   * @throws IllegalArgumentException naming the file and the problem, also for keys that are not options
   */
  static SettingsSources load(String[] args, Map<String, String> env, Set<String> knownOptions) {
    Optional<Path> path = configFileArg(args).or(() -> Optional.ofNullable(env.get("HOLDFAST_CONFIG_FILE"))
        .filter(v -> !v.isBlank())).map(Path::of);
    Map<String, String> values = new LinkedHashMap<>();
    if (path.isPresent()) {
      JsonNode root;
      try {
        root = new YAMLMapper().readTree(Files.readString(path.get()));
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException("--config-file '" + path.get() + "' cannot be read: " + firstLine(e));
      }
      if (root != null && !root.isNull() && !root.isMissingNode()) {
        if (!root.isObject()) {
          throw new IllegalArgumentException("--config-file '" + path.get()
              + "' must be a mapping of option names to values, e.g. 'xds-port: 18000'");
        }
        for (var entry : root.properties()) {
          String key = entry.getKey();
          if (!knownOptions.contains(key) || key.equals("config-file")) {
            throw new IllegalArgumentException("--config-file '" + path.get() + "': unknown setting '" + key
                + "' (keys are serve options without the leading dashes)");
          }
          JsonNode v = entry.getValue();
          // A list (a repeatable option such as gateway-address) reads as its comma-separated values.
          values.put(key, v.isValueNode() ? v.asString() : v.isArray()
              ? String.join(",", v.valueStream().map(JsonNode::asString).toList()) : v.toString());
        }
      }
    }
    return new SettingsSources(env, values, path);
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (!(arg instanceof OptionSpec option)) {
      return null;
    }
    String name = option.longestName().replaceFirst("^--", "");
    for (String var : envNames(name)) {
      String v = env.get(var);
      if (v != null && !v.isBlank()) {
        origins.put(name, "environment variable " + var);
        return v.trim();
      }
    }
    String fromFile = file.get(name);
    if (fromFile != null) {
      origins.put(name, "'" + name + "' in " + filePath.orElseThrow());
      return fromFile;
    }
    return null; // the option's own default
  }

  /** How to name a setting in an error: the flag, or the variable or file entry it came from. */
  String origin(String name, boolean onCommandLine) {
    return onCommandLine ? "--" + name : origins.getOrDefault(name, "--" + name);
  }

  static List<String> envNames(String option) {
    String primary = "HOLDFAST_" + option.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
    List<String> aliases = ALIASES.getOrDefault(option, List.of());
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(primary), aliases.stream()).toList();
  }

  private static Optional<String> configFileArg(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--config-file") && i + 1 < args.length) {
        return Optional.of(args[i + 1]);
      }
      if (args[i].startsWith("--config-file=")) {
        return Optional.of(args[i].substring("--config-file=".length()));
      }
    }
    return Optional.empty();
  }

  private static String firstLine(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
