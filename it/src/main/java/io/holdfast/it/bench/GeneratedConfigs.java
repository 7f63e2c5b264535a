package io.holdfast.it.bench;

import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.HeaderMatch;
import io.holdfast.api.HttpMethod;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.RetryPolicy;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteMatch;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.api.VirtualService;
import io.holdfast.api.VirtualServiceSelection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Deterministic, valid configs of a given route count for benchmarks: {@value #ROUTES_PER_VS} routes per
 * VirtualService (one domain each), one upstream per 100 routes (at least 10, three hosts each), one Gateway
 * serving everything. Routes cycle through header, regex+split+retries, exact+methods+timeout, redirect and
 * direct-response shapes, each VirtualService ending in a catch-all.
 *
 * <p>{@link #of} also takes the upstream count and a revision: revision 0 is the base config, revision r > 0
 * differs from it in exactly one upstream's endpoints and one route of the first VirtualService, as an
 * endpoint change plus a route edit would.
 */
public final class GeneratedConfigs {

  public static final int ROUTES_PER_VS = 50;
  private static final String NAMESPACE = "bench";

  private GeneratedConfigs() {
  }

  public static GatewayConfig withRoutes(int routes) {
    return of(routes, Math.max(10, routes / 100), 0);
  }

  /** {@code routes} routes over {@code upstreams} upstreams, at {@code revision} (0 = base). */
  public static GatewayConfig of(int routes, int upstreams, int revision) {
    if (routes < 1) {
      throw new IllegalArgumentException("routes must be at least 1, got " + routes);
    }
    if (upstreams < 2 || revision < 0) {
      throw new IllegalArgumentException("need upstreams >= 2 and revision >= 0, got " + upstreams + ", " + revision);
    }
    GatewayConfig.Builder config = GatewayConfig.builder();
    int changedUpstream = revision == 0 ? -1 : (revision - 1) % upstreams;
    for (int i = 0; i < upstreams; i++) {
      int port = i == changedUpstream ? 30_000 + revision % 30_000 : 20_000 + i;
      List<UpstreamTarget.Host> hosts = List.of(
          UpstreamTarget.Host.of("127.0.0.1", port),
          UpstreamTarget.Host.of("127.0.0.2", port),
          UpstreamTarget.Host.of("127.0.0.3", port));
      config.add(Upstream.ofHosts(Metadata.of(NAMESPACE, "up-" + i), hosts).withHttp2(i % 2 == 0));
    }
    int remaining = routes;
    for (int vs = 0; remaining > 0; vs++) {
      int count = Math.min(ROUTES_PER_VS, remaining);
      remaining -= count;
      List<Route> list = new ArrayList<>(count);
      for (int k = 0; k < count - 1; k++) {
        list.add(route(vs, k, upstreams, vs == 0 ? revision : 0));
      }
      list.add(Route.of(RouteMatch.prefix("/"), forward(vs, upstreams)));
      config.add(new VirtualService(Metadata.of(NAMESPACE, "vs-" + vs), List.of("svc-" + vs + ".bench.test"), list));
    }
    config.add(new Gateway(Metadata.of(NAMESPACE, "edge"), Gateway.DEFAULT_BIND_ADDRESS, 10080,
        new VirtualServiceSelection.AllInNamespace()));
    return config.build();
  }

  private static Route route(int vs, int k, int upstreams, int revision) {
    RouteAction target = forward(vs * 31 + k, upstreams);
    return switch (k % 5) {
      case 0 -> Route.of(RouteMatch.prefix("/p" + k + "/")
          .withHeaders(List.of(HeaderMatch.exact("x-tenant", "t" + k))), target);
      case 1 -> Route.of(RouteMatch.regex("/r" + k + "/[0-9]+"), new RouteAction.Split(List.of(
              new RouteAction.WeightedTarget(upstream(vs + k, upstreams), 80),
              new RouteAction.WeightedTarget(upstream(vs + k + 1, upstreams), 20))))
          .withRetries(new RetryPolicy(2, Optional.of(Duration.ofMillis(500)), List.of("5xx", "reset")));
      case 2 -> Route.of(RouteMatch.exact("/e" + k).withMethods(List.of(HttpMethod.GET, HttpMethod.POST)), target)
          .withTimeout(Duration.ofSeconds(3));
      case 3 -> Route.of(RouteMatch.prefix("/old" + k + "/"), new RouteAction.Redirect(Optional.empty(),
          Optional.empty(), Optional.of("/new/"), 301, false));
      default -> Route.of(RouteMatch.prefix("/d" + k), new RouteAction.DirectResponse(404,
          Optional.of(revision == 0 || k != 4 ? "gone" : "gone r" + revision)));
    };
  }

  private static RouteAction forward(int seed, int upstreams) {
    return new RouteAction.Forward(upstream(seed, upstreams));
  }

  private static ObjectRef upstream(int seed, int upstreams) {
    return ObjectRef.of("up-" + Math.floorMod(seed, upstreams));
  }
}
