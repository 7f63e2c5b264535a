package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.ir.Ir;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A translator that remembers its previous build must give exactly what a fresh translator gives: same resources,
 * origins and version, whatever the edit. Random edits to a generated config of about 500 routes (routes changed,
 * added, removed, moved; upstreams' endpoints, protocol, addition and removal; VirtualServices added and removed;
 * a fault-injecting route that changes the listeners' filters; reverting to an older config), each translated
 * incrementally and from scratch.
 */
class IncrementalTranslationTest {

  private static final int EDITS = 20;

  @ParameterizedTest
  @ValueSource(longs = {1, 2})
  void incrementalTranslationEqualsAFreshOne(long seed) {
    Random random = new Random(seed);
    Model model = Model.generate(random, 40, 12, 50);
    Translator incremental = new Translator();
    List<Ir> history = new ArrayList<>();
    for (int edit = 0; edit <= EDITS; edit++) {
      Ir ir;
      if (edit > 0 && edit % 10 == 0) {
        ir = history.get(random.nextInt(history.size())); // back to an older config, the very same IR
      } else {
        if (edit > 0) {
          model.edit(random);
        }
        ir = lower(model.config());
      }
      history.add(ir);
      assertSameAsFresh(incremental.translate(ir), ir, "seed " + seed + " edit " + edit);
    }
  }

  /** Unchanged elements passed on as the same instances (as an incremental front end would) take another path. */
  @ParameterizedTest
  @ValueSource(longs = {3})
  void incrementalTranslationOfAnIrSharingUnchangedElementsEqualsAFreshOne(long seed) {
    Random random = new Random(seed);
    Model model = Model.generate(random, 20, 10, 30);
    Translator incremental = new Translator();
    Ir previous = lower(model.config());
    incremental.translate(previous);
    for (int edit = 1; edit <= EDITS; edit++) {
      model.edit(random);
      Ir fresh = lower(model.config());
      Ir shared = new Ir(reuse(previous.listeners(), fresh.listeners()), reuse(previous.clusters(), fresh.clusters()),
          fresh.secrets());
      assertSameAsFresh(incremental.translate(shared), shared, "seed " + seed + " edit " + edit);
      previous = shared;
    }
  }

  /** IRs from the incremental front end share unchanged elements by construction: the translator's identity path. */
  @ParameterizedTest
  @ValueSource(longs = {4})
  void incrementalTranslationOfTheIncrementalFrontEndsIrEqualsAFreshOne(long seed) {
    Random random = new Random(seed);
    Model model = Model.generate(random, 20, 10, 30);
    HoldfastFrontEnd frontEnd = new HoldfastFrontEnd();
    Translator incremental = new Translator();
    for (int edit = 0; edit <= EDITS; edit++) {
      if (edit > 0) {
        model.edit(random);
      }
      ValidationResult result = new Validator().validate(model.config());
      Ir ir = frontEnd.lowerIncrementally(result.accepted());
      assertThat(ir).isEqualTo(HoldfastFrontEnd.lowerAccepted(result.accepted()));
      assertSameAsFresh(incremental.translate(ir), ir, "seed " + seed + " edit " + edit);
    }
  }

  private static void assertSameAsFresh(Translation incremental, Ir ir, String when) {
    Translation fresh = new Translator().translate(ir);
    assertThat(incremental.snapshot().resources()).as(when).isEqualTo(fresh.snapshot().resources());
    assertThat(incremental.snapshot().version()).as(when).isEqualTo(fresh.snapshot().version())
        .isEqualTo(XdsSnapshot.scopedVersion(XdsSnapshot.contentVersion(fresh.snapshot().resources()),
            fresh.snapshot().scopes()));
    assertThat(incremental.snapshot().scopes()).as(when).isEqualTo(fresh.snapshot().scopes());
    assertThat(incremental.fieldOrigins()).as(when).isEqualTo(fresh.fieldOrigins());
    assertThat(incremental.origins()).as(when).isEqualTo(fresh.origins());
  }

  /** {@code fresh}, with each element equal to one of {@code previous} replaced by that instance. */
  private static <T> List<T> reuse(List<T> previous, List<T> fresh) {
    return fresh.stream().map(element -> previous.stream().filter(element::equals).findFirst().orElse(element))
        .toList();
  }

  private static Ir lower(GatewayConfig config) {
    ValidationResult result = new Validator().validate(config);
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isServed()).isTrue());
    return HoldfastFrontEnd.lowerAccepted(result.accepted());
  }

  /** The config as mutable lists of YAML documents' parts. */
  private static final class Model {
    final List<int[]> upstreams = new ArrayList<>(); // {id, port, http2}
    final List<Vs> services = new ArrayList<>();
    int nextUpstream;
    int nextService;
    int nextRoute;

    record Vs(int id, List<String> routes) {
    }

    static Model generate(Random random, int services, int routesPerService, int upstreams) {
      Model model = new Model();
      for (int i = 0; i < upstreams; i++) {
        model.addUpstream(random);
      }
      for (int i = 0; i < services; i++) {
        model.addService(random, routesPerService);
      }
      return model;
    }

    void addUpstream(Random random) {
      upstreams.add(new int[] {nextUpstream++, 20_000 + random.nextInt(1000), random.nextInt(2)});
    }

    void addService(Random random, int routes) {
      List<String> list = new ArrayList<>();
      for (int k = 0; k < routes; k++) {
        list.add(route(random));
      }
      services.add(new Vs(nextService++, list));
    }

    String upstream(Random random) {
      return "up-" + upstreams.get(random.nextInt(upstreams.size()))[0];
    }

    String route(Random random) {
      int n = nextRoute++;
      return switch (random.nextInt(7)) {
        case 0 -> "{match: {prefix: /p" + n + "/, headers: [{name: x-tenant, exact: t" + n + "}]}, route: {upstream: "
            + upstream(random) + "}}";
        case 1 -> "{match: {regex: '/r" + n + "/[0-9]+'}, split: [{upstream: " + upstream(random)
            + ", weight: 80}, {upstream: " + upstream(random) + ", weight: 20}], retries: {attempts: 2, retryOn: [5xx]}}";
        case 2 -> "{match: {exact: /e" + n + ", methods: [GET, POST]}, route: {upstream: " + upstream(random)
            + "}, timeout: " + (1 + random.nextInt(5)) + "s}";
        case 3 -> "{match: {prefix: /old" + n + "/}, redirect: {path: /new" + random.nextInt(3) + "/, responseCode: 301}}";
        case 4 -> "{match: {prefix: /d" + n + "}, directResponse: {status: 404, body: gone" + random.nextInt(3) + "}}";
        case 5 -> random.nextInt(8) == 0 ? faultRoute(random)
            : "{match: {prefix: /q" + n + "}, route: {upstream: " + upstream(random) + "}}";
        default -> "{match: {prefix: /c" + n + "}, route: {upstream: " + upstream(random)
            + "}, options: {cors: {allowOrigin: ['https://a.test']}}}";
      };
    }

    String faultRoute(Random random) {
      return "{match: {prefix: /f" + nextRoute++ + "}, route: {upstream: " + upstream(random)
          + "}, options: {faults: {abort: {percentage: 5, httpStatus: 503}}}}";
    }

    void edit(Random random) {
      Vs vs = services.get(random.nextInt(services.size()));
      switch (random.nextInt(10)) {
        case 9 -> { // the first fault-injecting route adds the fault filter to the listeners, the last removes it
          if (!vs.routes().removeIf(r -> r.contains("faults")) || vs.routes().isEmpty()) {
            vs.routes().add(0, faultRoute(random));
          }
        }
        case 0, 1 -> vs.routes().set(random.nextInt(vs.routes().size()), route(random));
        case 2 -> vs.routes().add(random.nextInt(vs.routes().size() + 1), route(random));
        case 3 -> {
          if (vs.routes().size() > 1) {
            vs.routes().remove(random.nextInt(vs.routes().size()));
          }
        }
        case 4 -> vs.routes().add(vs.routes().remove(0));
        case 5 -> {
          int[] up = upstreams.get(random.nextInt(upstreams.size()));
          up[1] = 20_000 + random.nextInt(1000);
          up[2] = random.nextInt(2);
        }
        case 6 -> addUpstream(random);
        case 7 -> {
          if (services.size() > 2) {
            services.remove(vs);
          }
        }
        default -> addService(random, 1 + random.nextInt(5));
      }
      // Removing an upstream a route still names would reject that route: only remove unreferenced ones.
      if (random.nextInt(4) == 0) {
        String yaml = String.join("\n", services.stream().flatMap(s -> s.routes().stream()).toList());
        upstreams.removeIf(up -> upstreams.size() > 2 && !yaml.contains("up-" + up[0] + "}")
            && !yaml.contains("up-" + up[0] + ","));
      }
    }

    GatewayConfig config() {
      List<String> yamls = new ArrayList<>();
      for (int[] up : upstreams) {
        yamls.add("""
            apiVersion: gateway.holdfast.io/v1
            kind: Upstream
            metadata: {name: up-%d, namespace: default}
            spec:
              static:
                hosts: [{address: 127.0.0.1, port: %d}, {address: 127.0.0.2, port: %d}]
              http2: %s
            """.formatted(up[0], up[1], up[1], up[2] == 1));
      }
      for (Vs vs : services) {
        // Every other VirtualService has a wildcard domain only: those are not served to gRPC clients.
        String domain = vs.id() % 2 == 0 ? "svc-" + vs.id() + ".test" : "'*.svc-" + vs.id() + ".test'";
        yamls.add("""
            apiVersion: gateway.holdfast.io/v1
            kind: VirtualService
            metadata: {name: vs-%d, namespace: default}
            spec:
              domains: [%s]
              routes:
            %s
            """.formatted(vs.id(), domain, String.join("\n", vs.routes().stream().map(r -> "    - " + r).toList())));
      }
      yamls.add("""
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: edge, namespace: default}
          spec:
            port: 10080
          """);
      return TestManifests.config(yamls.toArray(String[]::new));
    }
  }
}
