package io.holdfast.server.demo;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code holdfast demo}: the original outage and Holdfast's answer to it, on this machine, in under 90 s. Needs
 * the emulated API (holdfast-testkit) and grpc-xds on the class path; {@code it/demo.sh} provides both.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"Run the outage story locally: an emulated Kubernetes API, three replicas, a backend and a"
        + " gRPC xDS client; the leader loses the API, then everyone does, then it comes back.",
        "Prints a timeline and a verdict line; exit status 0 when the verdict is PASS. Loopback only, < 90 s."})
public final class DemoCommand implements Callable<Integer> {
  /** Exit status when the demo cannot run here (missing pieces on the class path). */
  public static final int EXIT_UNAVAILABLE = 2;

  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Optional<String> missing = DemoWorld.missing();
    if (missing.isPresent()) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("holdfast demo: needs " + missing.get() + " on the class path; from a source checkout run"
          + " it/demo.sh, which builds and runs it with them");
      err.flush();
      return EXIT_UNAVAILABLE;
    }
    return new Demo(out).run();
  }
}
