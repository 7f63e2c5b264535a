package io.holdfast.it.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The story of the original outage, told on one machine: three replicas elect a leader through a Lease on an
 * emulated API; the leader is cut off from the API, then everyone is, and the route is changed on the API
 * meanwhile; then the API comes back. A gateway client keeps calling throughout. Prints a timeline (who leads,
 * who serves, calls succeeded/failed) and a verdict line; bounded by {@link #BOUND} once the replica processes run.
 */
final class Demo {
  static final Duration BOUND = Duration.ofSeconds(85);
  static final Duration ACT = Duration.ofSeconds(8);
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Duration START = Duration.ofSeconds(120);

  private final PrintWriter out;
  private final long t0 = System.nanoTime();
  private long storyStart = System.nanoTime(); // reset once the replicas run: BOUND is the story's, not start-up's
  private final Map<String, String> lastRole = new HashMap<>();
  private final List<String> leaders = new CopyOnWriteArrayList<>();

  Demo(PrintWriter out) {
    this.out = out;
  }

  /** Runs the story; 0 when the verdict is PASS, 1 when FAIL. */
  int run() throws IOException {
    Path dir = Files.createTempDirectory("holdfast-demo-");
    boolean pass = false;
    ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "demo-watch");
      t.setDaemon(true);
      return t;
    });
    try (DemoWorld world = new DemoWorld(dir)) {
      Thread onInterrupt = new Thread(world::close, "demo-cleanup");
      Runtime.getRuntime().addShutdownHook(onInterrupt);
      try {
        pass = story(world, watcher);
      } catch (IllegalStateException e) {
        say("demo", "stopped: " + e.getMessage());
      } finally {
        watcher.shutdownNow();
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
      }
    }
    if (pass) {
      deleteTree(dir);
    } else {
      out.println("logs kept in " + dir);
    }
    out.flush();
    return pass ? 0 : 1;
  }

  private boolean story(DemoWorld world, ScheduledExecutorService watcher) throws IOException {
    say("demo", "starting: emulated Kubernetes API, backends v1 and v2, replicas r1 r2 r3, one gateway client");
    world.startApi();
    world.startBackends("v1", "v2");
    world.write("POST", "/apis/gateway.holdfast.io/v1/namespaces/demo/upstreams", DemoWorld.upstream("v1",
        world.backendPort("v1")));
    world.write("POST", "/apis/gateway.holdfast.io/v1/namespaces/demo/upstreams", DemoWorld.upstream("v2",
        world.backendPort("v2")));
    world.write("POST", "/apis/gateway.holdfast.io/v1/namespaces/demo/virtualservices",
        DemoWorld.virtualService("v1"));
    say("api", "VirtualService echo (" + DemoWorld.DOMAIN + ") routes to v1");
    world.startReplicas(3);
    watcher.scheduleWithFixedDelay(() -> watch(world), 0, 200, TimeUnit.MILLISECONDS);
    // JVM start-up is not part of the story and can take tens of seconds on a loaded machine: the election's
    // bound starts once every replica's elector runs, not when the processes are launched.
    DemoWorld.waitFor(START, () -> world.replicas().stream()
        .allMatch(r -> world.role(r).map(x -> !x.role().equals("starting")).orElse(false)), "the replicas to start");
    storyStart = System.nanoTime();
    DemoWorld.waitFor(WAIT, () -> leader(world).isPresent(), "a leader");
    DemoWorld.Replica first = leader(world).orElseThrow();
    world.startClient(first);
    DemoWorld.waitFor(WAIT, () -> calls(world).ok() > 0, "the client's first answer");
    say("client", "gateway client (grpc-java xDS) gets its config from " + first.identity() + ", calling "
        + DemoWorld.DOMAIN);
    summary(world);

    act("act 1: the leader " + first.identity() + " loses the Kubernetes API");
    first.relay().cut();
    hold(world);
    summary(world);

    act("act 2: every replica loses the Kubernetes API; the route is changed to v2 on the API meanwhile");
    world.replicas().forEach(r -> r.relay().cut());
    int code = world.write("PUT", DemoWorld.VS_PATH, DemoWorld.virtualService("v2"));
    say("api", "VirtualService echo now routes to v2 (HTTP " + code + "); no replica can see it yet");
    hold(world);
    summary(world);

    act("act 3: the API comes back");
    world.replicas().forEach(r -> r.relay().restore());
    DemoWorld.waitFor(WAIT, () -> "v2".equals(calls(world).lastBackend()), "the client to reach v2");
    say("client", "now answered by v2: the change made during the outage is served");
    DemoWorld.waitFor(WAIT, () -> "True".equals(world.echoAccepted()) && !lastStatusWriter(world).isEmpty()
        && leader(world).map(l -> l.identity().equals(lastStatusWriter(world))).orElse(false),
        "the leader to write the VirtualService's status");
    say("api", "status of echo: Accepted=True, written by " + lastStatusWriter(world));
    summary(world);
    return verdict(world);
  }

  private boolean verdict(DemoWorld world) {
    DemoWorld.Calls calls = calls(world);
    long exited = world.replicas().stream().filter(r -> !r.process().isAlive()).count();
    long leading = world.replicas().stream().filter(r -> world.role(r).map(x -> x.role().equals("leader"))
        .orElse(false)).count();
    boolean pass = calls.failed() == 0 && exited == 0 && leading == 1 && "v2".equals(calls.lastBackend());
    out.printf("verdict: %s - %d calls, %d failed; leaders over time: %s; replica processes exited: %d; "
            + "leaders now: %d; outage-time route change served: %s%n", pass ? "PASS" : "FAIL",
        calls.ok() + calls.failed(), calls.failed(), String.join(" -> ", leaders), exited, leading,
        "v2".equals(calls.lastBackend()) ? "yes" : "no");
    return pass;
  }

  private void watch(DemoWorld world) {
    for (DemoWorld.Replica r : world.replicas()) {
      String now = world.role(r).map(x -> x.role()).orElse(r.process().isAlive() ? "starting" : "exited");
      String before = lastRole.put(r.identity(), now);
      if (!now.equals(before) && !(before == null && now.equals("starting"))) {
        say(r.identity(), (before == null ? "" : before + " -> ") + now
            + (r.relay().isCut() ? "   (cut off from the API, still serving xDS)" : ""));
        if (now.equals("leader") && (leaders.isEmpty() || !leaders.get(leaders.size() - 1).equals(r.identity()))) {
          leaders.add(r.identity());
        }
      }
    }
  }

  private Optional<DemoWorld.Replica> leader(DemoWorld world) {
    List<DemoWorld.Replica> l = world.replicas().stream()
        .filter(r -> world.role(r).map(x -> x.role().equals("leader") && x.holder().equals(r.identity()))
            .orElse(false)).toList();
    return l.size() == 1 ? Optional.of(l.get(0)) : Optional.empty();
  }

  /** Keeps the current fault for one act, checking the bound. */
  private void hold(DemoWorld world) {
    long end = System.nanoTime() + ACT.toNanos();
    DemoWorld.waitFor(ACT.plusSeconds(1), () -> System.nanoTime() - end > 0, "the act to end");
    if (Duration.ofNanos(System.nanoTime() - storyStart).compareTo(BOUND) > 0) {
      throw new IllegalStateException("over the demo's time bound of " + BOUND.toSeconds() + "s");
    }
  }

  private void summary(DemoWorld world) {
    DemoWorld.Calls c = calls(world);
    say("client", c.ok() + " calls succeeded, " + c.failed() + " failed so far (last answer from "
        + (c.lastBackend().isEmpty() ? "nobody" : c.lastBackend()) + ")");
  }

  private static DemoWorld.Calls calls(DemoWorld world) {
    try {
      return world.calls();
    } catch (IOException e) {
      return new DemoWorld.Calls(0, 0, "");
    }
  }

  private static String lastStatusWriter(DemoWorld world) {
    try {
      return world.lastStatusWriter();
    } catch (IOException e) {
      return "";
    }
  }

  private void act(String title) {
    out.println();
    out.println("== " + title);
    out.flush();
  }

  private synchronized void say(String who, String what) {
    out.printf("[%5.1fs] %-7s %s%n", (System.nanoTime() - t0) / 1e9, who, what);
    out.flush();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
