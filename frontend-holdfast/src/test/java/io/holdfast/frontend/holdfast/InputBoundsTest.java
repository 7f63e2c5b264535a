package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.VirtualHost;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounds on regexes and delegation, each with its named reason, through the whole front end. */
class InputBoundsTest {

  private static final ResourceKey WEB = ResourceKey.virtualService("default", "web");

  static String vs(String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: ["*"]
          routes:
        %s""".formatted(routes.indent(4));
  }

  static String table(String name, String labels, String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: %s, labels: {%s}}
        spec:
          routes:
        %s""".formatted(name, labels, routes.indent(4));
  }

  /** A VirtualService delegating to t1, which delegates to t2, ..., down to t{length}, which forwards. */
  static List<String> chain(int length) {
    List<String> out = new ArrayList<>();
    out.add(vs("- {match: {prefix: /}, delegate: {ref: {name: t1}}}"));
    for (int i = 1; i < length; i++) {
      out.add(table("t" + i, "", "- {match: {prefix: /}, delegate: {ref: {name: t" + (i + 1) + "}}}"));
    }
    out.add(table("t" + length, "", "- {match: {prefix: /}, route: {upstream: up}}"));
    return out;
  }

  /** {@code width} tables per level, each level's tables delegating by selector to every table of the next. */
  static List<String> fanOut(int levels, int width) {
    List<String> out = new ArrayList<>();
    out.add(vs("- {match: {prefix: /}, delegate: {selector: {matchLabels: {level: '1'}}}}"));
    for (int level = 1; level <= levels; level++) {
      for (int j = 0; j < width; j++) {
        String routes = level == levels ? "- {match: {prefix: /l" + j + "}, route: {upstream: up}}"
            : "- {match: {prefix: /}, delegate: {selector: {matchLabels: {level: '" + (level + 1) + "'}}}}";
        out.add(table("l" + level + "-" + j, "level: '" + level + "'", routes));
      }
    }
    return out;
  }

  private static IrBuilder.Result lower(InputLimits limits, List<String> yamls) {
    List<String> all = new ArrayList<>(List.of(upstream("up", 9101), gateway("gw", 10080)));
    all.addAll(yamls);
    IrBuilder builder = new IrBuilder();
    new HoldfastFrontEnd(Clock.systemUTC(), limits).lower(config(all.toArray(String[]::new)), builder);
    return builder.build();
  }

  private static List<Finding> errors(IrBuilder.Result result, ResourceKey key) {
    ObjectStatus status = result.statuses().get(key);
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  private static int routesOf(IrBuilder.Result result) {
    return result.ir().listeners().stream().flatMap(l -> l.virtualHosts().stream())
        .filter(h -> h.origin().object().equals(WEB)).mapToInt(h -> h.routes().size()).max().orElse(0);
  }

  @Test
  void aChainOf2000RouteTablesIsCutAtTheDepthLimitWithoutOverflowingTheStack() {
    long start = cpuNanos();
    IrBuilder.Result result = lower(InputLimits.DEFAULTS, chain(2000));
    assertThat(cpuNanos() - start).as("CPU nanoseconds of this thread").isLessThan(5_000_000_000L);

    ResourceKey first = ResourceKey.routeTable("default", "t" + (InputLimits.DEFAULT_MAX_DELEGATION_DEPTH + 1));
    assertThat(errors(result, first)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(Reasons.DELEGATION_TOO_DEEP);
      assertThat(f.message()).contains("33 RouteTables deep under " + WEB, "--max-delegation-depth");
    });
    assertThat(errors(result, ResourceKey.routeTable("default", "t32"))).isEmpty();
    assertThat(result.statuses().get(ResourceKey.routeTable("default", "t32")).findings())
        .anySatisfy(f -> assertThat(f.reason()).isEqualTo(Reasons.ROUTE_TABLE_REJECTED));
    // What lies below is not reached (a note), not rejected for depth; the VirtualService stays served.
    assertThat(errors(result, ResourceKey.routeTable("default", "t1500"))).isEmpty();
    assertThat(errors(result, WEB)).isEmpty();
  }

  @Test
  void aRaisedDepthServesTheWholeChain() {
    IrBuilder.Result result = lower(InputLimits.DEFAULTS.withMaxDelegationDepth(3000), chain(2000));
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isAccepted()).isTrue());
    assertThat(routesOf(result)).isEqualTo(1);
  }

  @Test
  void aTenLevelFanOutIsRejectedAsTooManyRoutesInsteadOfFlattenedAMillionTimes() {
    long start = cpuNanos();
    IrBuilder.Result result = lower(InputLimits.DEFAULTS, fanOut(10, 4));
    assertThat(cpuNanos() - start).as("CPU nanoseconds of this thread").isLessThan(5_000_000_000L);
    assertThat(errors(result, WEB)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(Reasons.TOO_MANY_ROUTES);
      assertThat(f.field()).isEqualTo("spec.routes");
      assertThat(f.message()).contains("10000", "--max-routes-per-virtual-host");
    });
    assertThat(routesOf(result)).isZero();
  }

  @Test
  void aFanOutWithinTheLimitIsServedWhole() {
    // 4^5 = 1024 leaf routes, plus 4 + 16 + 64 + 256 delegating routes and the VirtualService's own: 1365.
    IrBuilder.Result accepted = lower(InputLimits.DEFAULTS.withMaxRoutesPerVirtualHost(1365), fanOut(5, 4));
    assertThat(errors(accepted, WEB)).isEmpty();
    assertThat(routesOf(accepted)).isEqualTo(1024);
    IrBuilder.Result refused = lower(InputLimits.DEFAULTS.withMaxRoutesPerVirtualHost(1364), fanOut(5, 4));
    assertThat(errors(refused, WEB)).extracting(Finding::reason).containsExactly(Reasons.TOO_MANY_ROUTES);
  }

  @Test
  void aRegexBombIsRegexTooComplexOnItsOwnRouteAndTheRestIsServed() {
    IrBuilder.Result result = lower(InputLimits.DEFAULTS, List.of(vs("""
        - {match: {regex: '((a{1000}){1000}){1000}'}, route: {upstream: up}}
        - {match: {prefix: /}, route: {upstream: up}}"""), table("other", "", "- {match: {prefix: /}, route: {upstream: up}}")));
    assertThat(errors(result, WEB)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
      assertThat(f.field()).isEqualTo("spec.routes[0].match.regex");
    });
  }

  @Test
  void regexLimitsComeFromTheSettings() {
    String routes = "- {match: {regex: '/" + "x".repeat(200) + "'}, route: {upstream: up}}";
    assertThat(errors(lower(InputLimits.DEFAULTS, List.of(vs(routes))), WEB)).extracting(Finding::reason)
        .containsExactly(Reasons.REGEX_TOO_COMPLEX);
    assertThat(errors(lower(InputLimits.DEFAULTS.withMaxRegexProgramSize(1000), List.of(vs(routes))), WEB))
        .isEmpty();
    assertThat(errors(lower(InputLimits.DEFAULTS.withMaxRegexLength(100).withMaxRegexProgramSize(1000),
        List.of(vs(routes))), WEB)).extracting(Finding::message).singleElement().asString()
        .contains("201 characters long", "--max-regex-length");
  }

  /** Lowering keeps to the bounds whatever it is given (e.g. a last accepted VirtualService over new tables). */
  @Test
  void loweringAloneStaysBounded() {
    IrBuilder.Result all = lower(InputLimits.DEFAULTS.withMaxRoutesPerVirtualHost(2_000_000), fanOut(3, 4));
    assertThat(routesOf(all)).isEqualTo(64);
    VirtualHost host = all.ir().listeners().stream().flatMap(l -> l.virtualHosts().stream())
        .filter(h -> h.origin().object().equals(WEB)).findFirst().orElseThrow();
    assertThat(host.routes()).hasSize(64);
  }

  /**
   * The bound is on the work lowering does, which runs on this thread: its CPU time, unlike wall time, does not grow
   * when other processes hold the machine's cores.
   */
  private static long cpuNanos() {
    return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }
}
