package io.holdfast.server.cli;

import io.holdfast.common.Durations;
import io.holdfast.server.fleet.FleetJson;
import io.holdfast.server.fleet.FleetReport;
import io.holdfast.server.fleet.FleetText;
import io.holdfast.server.fleet.ReplicaAddresses;
import io.holdfast.server.fleet.StateFetcher;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code holdfast status}: every replica's {@code /state}, read over HTTP from the replicas themselves (never
 * through the Kubernetes API), judged as one fleet. Exit status: 0 safe, 1 at risk, 2 broken (or a usage error,
 * as for every command: then nothing is printed on standard output), 3 no replica answered or the command failed.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {"The fleet at a glance: leader, staleness, versions, proxies, rejections and NACKs of every"
        + " replica, read from each replica's admin /state directly, so it works while the Kubernetes API is down.",
        "Exit status: 0 safe, 1 at risk, 2 broken, 3 no replica answered (or internal error); usage errors are 2."})
final class StatusCommand implements Callable<Integer> {
  static final String DEFAULT_ADMIN_PORT = ServeCommand.DEFAULT_ADMIN_PORT;

  private final ReplicaAddresses.Resolver resolver;

  @Spec
  private CommandSpec spec;

  @Option(names = "--replica", paramLabel = "HOST:PORT",
      description = "A replica's admin address; repeat for each replica.")
  private List<String> replicas = new ArrayList<>();

  @Option(names = "--service", paramLabel = "NAME",
      description = "A headless Service's DNS name (e.g. holdfast-admin.holdfast-system.svc.cluster.local): every"
          + " address it resolves to (A and AAAA) is a replica. Cluster DNS answers without the API server.")
  private String service;

  @Option(names = "--admin-port", paramLabel = "PORT", defaultValue = DEFAULT_ADMIN_PORT,
      description = "The replicas' admin port, with --service (default: ${DEFAULT-VALUE}).")
  private int adminPort;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "3s",
      description = "How long each replica may take to answer (default: ${DEFAULT-VALUE}).")
  private String timeout;

  @Option(names = "--parallel", paramLabel = "N", defaultValue = "" + StateFetcher.DEFAULT_PARALLELISM,
      description = "Replicas asked at once (default: ${DEFAULT-VALUE}).")
  private int parallel;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
      description = "text or json (default: ${DEFAULT-VALUE}).")
  private String output;

  StatusCommand() {
    this(InetAddress::getAllByName);
  }

  StatusCommand(ReplicaAddresses.Resolver resolver) {
    this.resolver = resolver;
  }

  @Override
  public Integer call() {
    boolean json = switch (output.trim()) {
      case "text" -> false;
      case "json" -> true;
      default -> throw usage("--output must be text or json, got '" + output + "'");
    };
    if (replicas.isEmpty() == (service == null)) {
      throw usage("give the replicas with --replica HOST:PORT (repeated) or --service NAME, one of the two");
    }
    StateFetcher fetcher;
    List<String> addresses = new ArrayList<>();
    try {
      fetcher = new StateFetcher(Durations.parse("--timeout", timeout), parallel);
      if (replicas.size() > ReplicaAddresses.MAX_REPLICAS) {
        throw new IllegalArgumentException("at most " + ReplicaAddresses.MAX_REPLICAS + " --replica flags");
      }
      replicas.forEach(r -> addresses.add(ReplicaAddresses.checkReplica(r)));
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      if (service != null) {
        ReplicaAddresses.Resolved resolved = ReplicaAddresses.resolve(service, adminPort, resolver);
        resolved.warnings().forEach(w -> err.println("holdfast status: " + w));
        addresses.addAll(resolved.addresses());
      }
    } catch (UnknownHostException e) {
      err.println("holdfast status: " + service + " does not resolve: " + e.getMessage());
      err.flush();
      return FleetReport.EXIT_NO_ANSWER;
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    try {
      FleetReport report = FleetReport.of(fetcher.fetch(addresses));
      if (json) {
        out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
            .writeValueAsString(FleetJson.toMap(report)));
      } else {
        out.print(FleetText.render(report));
      }
      out.flush();
      if (report.answered().isEmpty()) {
        err.println("holdfast status: no replica answered");
      }
      err.flush();
      return report.exitCode();
    } catch (RuntimeException e) {
      err.println("holdfast status: internal error: " + e);
      err.flush();
      return FleetReport.EXIT_NO_ANSWER;
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
