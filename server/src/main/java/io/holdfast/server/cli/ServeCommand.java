package io.holdfast.server.cli;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code holdfast serve}: turns flags into {@link ServeSettings} and hands them to the {@link ServeAction}. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = "Run the control plane: read gateway config and serve it to Envoy over xDS.")
final class ServeCommand implements Callable<Integer> {
  static final String DEFAULT_XDS_ADDRESS = "127.0.0.1";
  static final String DEFAULT_XDS_PORT = "18000";
  static final String DEFAULT_ADMIN_ADDRESS = "127.0.0.1";
  static final String DEFAULT_ADMIN_PORT = "9091";
  static final String DEFAULT_LOG_FORMAT = "text";

  private final ServeAction action;

  @Spec
  private CommandSpec spec;

  @Option(names = "--config-dir", paramLabel = "DIR",
      description = "Directory of *.yaml/*.yml gateway config files, watched for changes"
          + " (required in file mode; default: none).")
  private Path configDir;

  @Option(names = "--xds-address", paramLabel = "ADDRESS", defaultValue = DEFAULT_XDS_ADDRESS,
      description = "Address the xDS gRPC server binds to (default: ${DEFAULT-VALUE}).")
  private String xdsAddress;

  @Option(names = "--xds-port", paramLabel = "PORT", defaultValue = DEFAULT_XDS_PORT,
      converter = PortConverter.class,
      description = "Port of the xDS gRPC server, 0..65535; 0 picks a free port (default: ${DEFAULT-VALUE}).")
  private int xdsPort;

  @Option(names = "--admin-address", paramLabel = "ADDRESS", defaultValue = DEFAULT_ADMIN_ADDRESS,
      description = "Address of the admin HTTP server: /healthz /readyz /metrics /state"
          + " (default: ${DEFAULT-VALUE}).")
  private String adminAddress;

  @Option(names = "--admin-port", paramLabel = "PORT", defaultValue = DEFAULT_ADMIN_PORT,
      converter = PortConverter.class,
      description = "Port of the admin HTTP server, 0..65535 (default: ${DEFAULT-VALUE}).")
  private int adminPort;

  @Option(names = "--snapshot-dir", paramLabel = "DIR",
      description = "Existing writable directory for persisted snapshots (optional; default: none).")
  private Path snapshotDir;

  @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = DEFAULT_LOG_FORMAT,
      converter = LogFormatConverter.class,
      description = "Log output format: text or json (default: ${DEFAULT-VALUE}).")
  private LogFormat logFormat;

  ServeCommand(ServeAction action) {
    this.action = Objects.requireNonNull(action, "action");
  }

  @Override
  public Integer call() throws Exception {
    ServeSettings settings;
    try {
      settings = new ServeSettings(configDir, xdsAddress, xdsPort, adminAddress, adminPort,
          Optional.ofNullable(snapshotDir), logFormat);
    } catch (IllegalArgumentException e) {
      // Reported like a parse error: one line, usage hint, exit code 2.
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    return action.serve(settings);
  }

  /** Parses a port; the range is checked by {@link ServeSettings} so both paths give the same message. */
  static final class PortConverter implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        return Integer.parseInt(value.trim());
      } catch (NumberFormatException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a port number (expected an integer in 0.." + ServeSettings.MAX_PORT + ")");
      }
    }
  }

  static final class LogFormatConverter implements ITypeConverter<LogFormat> {
    @Override
    public LogFormat convert(String value) {
      try {
        return LogFormat.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
