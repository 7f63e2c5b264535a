package io.holdfast.frontend.gloo;

import io.holdfast.api.ApiObject;
import io.holdfast.api.Gateway;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficOptions;
import io.holdfast.ir.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The objects Gloo's authorisation and rate-limit options name, read before the options: the {@code Settings}
 * (its servers, {@link GlooSettings}), {@code AuthConfig}s ({@link AuthConfigReader}) and {@code RateLimitConfig}s
 * ({@link RateLimitActions}). None becomes a Holdfast resource of its own: each is lowered where an option names
 * it, and has its own status (rejected with the field that cannot be honoured, or accepted).
 */
final class EdgeObjects {

  /** Warning on a Settings Gloo would not read (only {@code default} is). */
  static final String SETTINGS_NOT_USED = "SettingsNotUsed";

  private EdgeObjects() {
  }

  static EdgePolicies.Context read(List<ApiObject> objects, Destinations destinations,
      BiConsumer<ApiObject, Runnable> guarded, Map<ResourceKey, List<Finding>> rejected,
      Map<ResourceKey, List<Finding>> warnings) {
    Map<ResourceKey, Optional<AuthConfigReader.PassThrough>> authConfigs = new TreeMap<>();
    Map<ResourceKey, Optional<List<TrafficOptions.Descriptor>>> rateLimitConfigs = new TreeMap<>();
    TreeSet<ResourceKey> settingsKeys = new TreeSet<>();
    objects.stream().filter(o -> o.key().kind().equals(GlooKinds.SETTINGS)).forEach(o -> settingsKeys.add(o.key()));
    Optional<ResourceKey> inUse = GlooSettings.inUse(settingsKeys);
    GlooSettings.State[] settings = {new GlooSettings.State.Absent()};
    for (ApiObject object : objects) {
      ResourceKey key = object.key();
      guarded.accept(object, () -> {
        List<Finding> findings = new ArrayList<>();
        Node spec = new Node(object.bodyCopy().path("spec"), "spec", findings);
        if (!spec.json.isObject()) {
          findings.add(new Finding(Finding.Severity.ERROR, "spec", Reasons.MISSING_FIELD, "spec is required"));
        }
        boolean ok;
        switch (key.kind()) {
          case GlooKinds.SETTINGS -> {
            GlooSettings.State.Read read = GlooSettings.read(key, spec);
            ok = noErrors(findings);
            if (inUse.filter(key::equals).isPresent()) {
              settings[0] = ok ? read : new GlooSettings.State.Rejected(key);
            } else {
              findings.add(new Finding(Finding.Severity.WARNING, "metadata.name", SETTINGS_NOT_USED, "Gloo reads the"
                  + " Settings named " + GlooSettings.NAME + " (the one in " + GlooSettings.NAMESPACE + " when"
                  + " several namespaces hold one); this one is not used"));
            }
          }
          case GlooKinds.AUTH_CONFIG -> {
            Optional<AuthConfigReader.PassThrough> read = AuthConfigReader.read(spec);
            ok = noErrors(findings) && read.isPresent();
            authConfigs.put(key, ok ? read : Optional.empty());
          }
          default -> {
            Optional<List<TrafficOptions.Descriptor>> read = RateLimitActions.config(spec);
            ok = noErrors(findings) && read.isPresent();
            rateLimitConfigs.put(key, ok ? read : Optional.empty());
          }
        }
        if (!ok) {
          rejected.computeIfAbsent(key, k -> new ArrayList<>()).addAll(findings);
        } else if (!findings.isEmpty()) {
          warnings.put(key, List.copyOf(findings));
        }
      });
      // A Holdfast failure reading one of them rejects it (guarded) and leaves it unusable, never missing-as-open.
      if (rejected.containsKey(key)) {
        if (key.kind().equals(GlooKinds.AUTH_CONFIG)) {
          authConfigs.put(key, Optional.empty());
        } else if (key.kind().equals(GlooKinds.RATE_LIMIT_CONFIG)) {
          rateLimitConfigs.put(key, Optional.empty());
        } else if (inUse.filter(key::equals).isPresent()) {
          settings[0] = new GlooSettings.State.Rejected(key);
        }
      }
    }
    return new EdgePolicies.Context(settings[0], authConfigs, rateLimitConfigs, destinations);
  }

  /**
   * {@code gateway} sending rate-limit descriptors to the Settings' rate-limit server, as Gloo configures its
   * rate-limit filter on every HTTP listener; unchanged without one, or when the Gateway names its own.
   */
  static Gateway withRateLimitServer(Gateway gateway, GlooSettings.State settings) {
    if (!(settings instanceof GlooSettings.State.Read read) || read.rateLimit().isEmpty()
        || gateway.options().rateLimitService().isPresent()) {
      return gateway;
    }
    return gateway.withOptions(gateway.options().withRateLimitService(read.rateLimit()));
  }

  /**
   * {@code gateway} asking the Settings' external processing server, as Gloo configures its ext_proc filter on
   * every HTTP listener; unchanged without one.
   */
  static Gateway withExtProc(Gateway gateway, GlooSettings.State settings) {
    if (!(settings instanceof GlooSettings.State.Read read) || read.extProc().isEmpty()) {
      return gateway;
    }
    return gateway.withOptions(gateway.options().withExtProc(read.extProc()));
  }

  /**
   * {@code gateway} translating gRPC-Web as the Settings say ({@link GlooSettings#grpcWeb}), as Gloo's grpcweb plugin
   * adds its filter to every HTTP listener; unchanged when the Gateway's own {@code httpGateway.options.grpcWeb}
   * decided (it wins over the Settings either way in Gloo).
   */
  static Gateway withGrpcWeb(Gateway gateway, GlooSettings.State settings) {
    if (gateway.options().grpcWeb().isPresent()) {
      return gateway;
    }
    return gateway.withOptions(gateway.options().withGrpcWeb(Optional.of(GlooSettings.grpcWeb(settings))));
  }

  private static boolean noErrors(List<Finding> findings) {
    return findings.stream().noneMatch(f -> f.severity() == Finding.Severity.ERROR);
  }
}
