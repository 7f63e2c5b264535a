package io.holdfast.it.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The outage story and Holdfast's answer to it, on this machine, in under 90 s: an emulated Kubernetes API, three
 * replicas, a backend and a gRPC xDS client; the leader loses the API, then everyone does, then it comes back.
 * Prints a timeline and a verdict line; exit status 0 when the verdict is PASS. Loopback only.
 *
 * <p>Not part of the product jar: it needs the test kit's emulated API and grpc-xds, which {@code it/demo.sh}
 * puts on the class path (the it module's test class path) before running this class.
 */
public final class DemoMain {
  /** Exit status when the demo cannot run here (missing pieces on the class path). */
  public static final int EXIT_UNAVAILABLE = 2;
  /** Exit status for arguments the demo does not take. */
  public static final int EXIT_USAGE = 64;

  private DemoMain() {
  }

  public static void main(String[] args) throws IOException {
    System.exit(run(List.of(args), new PrintWriter(System.out, true, StandardCharsets.UTF_8),
        new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
  }

  static int run(List<String> args, PrintWriter out, PrintWriter err) throws IOException {
    if (args.equals(List.of("--help")) || args.equals(List.of("-h"))) {
      out.println("Usage: it/demo.sh");
      out.println("Runs the outage story locally: an emulated Kubernetes API, three replicas, a backend and a gRPC"
          + " xDS client; the leader loses the API, then everyone does, then it comes back. Prints a timeline and a"
          + " verdict line; exit status 0 when the verdict is PASS. Loopback only, < 90 s.");
      return 0;
    }
    if (!args.isEmpty()) {
      err.println("holdfast demo: takes no arguments, got " + args + "; try --help");
      return EXIT_USAGE;
    }
    Optional<String> missing = DemoWorld.missing();
    if (missing.isPresent()) {
      err.println("holdfast demo: needs " + missing.get() + " on the class path; from a source checkout run"
          + " it/demo.sh, which builds and runs it with them");
      return EXIT_UNAVAILABLE;
    }
    return new Demo(out).run();
  }
}
