package io.holdfast.frontend.gloo;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.TrafficOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo's external processing: the Settings' {@code extProc} filter ({@link #settings}: Holdfast's Gateway
 * {@code options.extProc}) and the per-virtual-host and per-route settings {@code extProc}, {@code extProcEarly},
 * {@code extProcLate} in an {@code options} (extproc.proto's {@code RouteSettings}, either {@code disabled} or
 * {@code overrides}).
 *
 * <p>A route setting only tunes or turns off a filter that Gloo's Settings install; it installs none itself. The
 * {@code extProc} setting is Holdfast's route {@code extProc} ({@link #route}); with no Settings filter it changes
 * nothing in either proxy, and says so in a warning. Holdfast serves no early or late filter (Settings'
 * {@code extProcEarly} and {@code extProcLate} reject the Settings), so their route settings are read only when
 * the Settings in use are known to install neither (absent, or read): then they change nothing, as in Gloo, and a
 * warning says so. When the Settings are rejected, whether they install a filter is unknown, so any of the three
 * is an error. Only {@code disabled} and {@code overrides.processingMode} are read; the other overrides (notably
 * {@code grpcService}, which names another processing server) reject the object.
 */
final class GlooExtProc {

  /** The option fields this class reads, in a virtual host's and a route's {@code options}. */
  static final Set<String> FIELDS = Set.of("extProc", "extProcEarly", "extProcLate");

  /** A setting for an ext_proc filter that Gloo's proxy does not have: it changes nothing. */
  static final String NOT_CONFIGURED = "ExtProcNotConfigured";
  /** A setting for an ext_proc filter that rejected Settings may install. */
  static final String SETTINGS_REJECTED = "ExtProcSettingsRejected";

  private static final Set<String> ROUTE_SETTINGS = Set.of("disabled", "overrides");
  private static final Set<String> OVERRIDES = Set.of("processingMode");
  /** Envoy's ProcessingMode fields (as Gloo writes them) to Holdfast's. */
  private static final Map<String, String> PROCESSING_MODE = Map.of("requestHeaderMode", "requestHeaders",
      "responseHeaderMode", "responseHeaders", "requestBodyMode", "requestBody", "responseBodyMode", "responseBody",
      "requestTrailerMode", "requestTrailers", "responseTrailerMode", "responseTrailers");
  /** Envoy's HeaderSendMode and BodySendMode values to Holdfast's spelling. */
  private static final Map<String, String> HEADER_MODES = Map.of("DEFAULT", "Default", "SEND", "Send",
      "SKIP", "Skip");
  private static final Map<String, String> BODY_MODES = Map.of("NONE", "None", "STREAMED", "Streamed",
      "BUFFERED", "Buffered", "BUFFERED_PARTIAL", "BufferedPartial");
  private static final Set<String> SETTINGS = Set.of("grpcService", "filterStage", "failureModeAllow",
      "processingMode", "messageTimeout", "allowModeOverride", "asyncMode", "disableClearRouteCache", "statPrefix");
  private static final Set<String> GRPC_SERVICE = Set.of("extProcServerRef");

  private GlooExtProc() {
  }

  /**
   * The Settings' {@code extProc} as Holdfast's Gateway {@code options.extProc}; findings go to {@code extProc}'s
   * list (errors reject the Settings).
   */
  static Optional<TrafficOptions.ExtProc> settings(Node extProc, String namespace) {
    extProc.protoNames().only("Settings' extProc", SETTINGS);
    for (String field : List.of("allowModeOverride", "asyncMode", "disableClearRouteCache")) {
      if (extProc.bool(field).orElse(false)) {
        extProc.error(extProc.at(field), GlooFeatures.UNSUPPORTED, field + " is not supported by Holdfast's"
            + " ext_proc; the Settings is rejected rather than served otherwise");
      }
    }
    if (extProc.string("statPrefix").filter(p -> !p.isEmpty()).isPresent()) {
      extProc.error(extProc.at("statPrefix"), GlooFeatures.UNSUPPORTED, "statPrefix is not supported by Holdfast");
    }
    Optional<String> position = GlooFilterStage.position(extProc);
    Node grpc = extProc.child("grpcService").protoNames().only("grpcService", GRPC_SERVICE);
    if (!grpc.has("extProcServerRef")) {
      extProc.error(extProc.at("grpcService.extProcServerRef"), io.holdfast.api.Reasons.MISSING_FIELD,
          "the external processing server's Upstream");
      return Optional.empty();
    }
    ObjectRef server = GlooSettings.ref(grpc.child("extProcServerRef"), namespace);
    TrafficOptions.ProcessingMode mode = extProc.has("processingMode")
        ? processingMode(extProc.child("processingMode")) : TrafficOptions.ProcessingMode.DEFAULT;
    return Optional.of(new TrafficOptions.ExtProc(server, mode, extProc.bool("failureModeAllow").orElse(false),
        extProc.duration("messageTimeout"), position));
  }

  /** A route's or virtual host's {@code extProc} as Holdfast's route {@code extProc} (findings: {@link #read}). */
  static Optional<TrafficOptions.ExtProcRoute> route(Node options) {
    if (!options.has("extProc")) {
      return Optional.empty();
    }
    Node setting = new Node(options.json.get("extProc"), options.at("extProc"), new ArrayList<>()).protoNames();
    if (setting.bool("disabled").orElse(false)) {
      return Optional.of(new TrafficOptions.ExtProcRoute(true, Optional.empty()));
    }
    Node overrides = setting.child("overrides").protoNames();
    if (!overrides.has("processingMode")) {
      return Optional.empty();
    }
    return Optional.of(new TrafficOptions.ExtProcRoute(false,
        Optional.of(processingMode(overrides.child("processingMode")))));
  }

  /** Checks the {@code extProc*} fields of one {@code options} object; findings go to its list. */
  static void read(Node options, GlooSettings.State settings) {
    for (String field : List.of("extProc", "extProcEarly", "extProcLate")) {
      if (options.has(field)) {
        readOne(options.child(field).protoNames().only(field, ROUTE_SETTINGS), field, settings);
      }
    }
  }

  private static void readOne(Node setting, String field, GlooSettings.State settings) {
    if (setting.has("disabled") && setting.has("overrides")) {
      setting.error(setting.path, io.holdfast.api.Reasons.CONFLICTING_FIELDS, field + " has one of disabled,"
          + " overrides (extproc.proto's oneof)");
      return;
    }
    if (setting.has("disabled")) {
      setting.bool("disabled");
    }
    if (setting.has("overrides")) {
      Node overrides = setting.child("overrides").protoNames().only(field + ".overrides", OVERRIDES);
      if (overrides.has("processingMode")) {
        processingMode(overrides.child("processingMode"));
      }
    }
    if (settings instanceof GlooSettings.State.Rejected) {
      setting.error(setting.path, SETTINGS_REJECTED, field + " tunes the " + field + " filter of Gloo's Settings,"
          + " and " + GlooSettings.describe(settings) + "; whether that filter exists is unknown, so the object is"
          + " not served");
      return;
    }
    if (field.equals("extProc") && settings instanceof GlooSettings.State.Read read && read.extProc().isPresent()) {
      return; // Holdfast's route extProc, tuning the Gateway's ext_proc filter
    }
    setting.warn(setting.path, NOT_CONFIGURED, field + " tunes the " + field + " filter that Gloo's Settings"
        + " install, and " + GlooSettings.describe(settings) + ": Gloo's proxy has no such filter, so this setting"
        + " changes nothing and the routes are served without external processing, as Gloo serves them");
  }

  /** Envoy's ProcessingMode as Gloo writes it, in Holdfast's spelling; unknown values are errors. */
  private static TrafficOptions.ProcessingMode processingMode(Node mode) {
    mode.protoNames().only("processingMode", PROCESSING_MODE.keySet());
    Map<String, String> out = new java.util.HashMap<>();
    for (Map.Entry<String, String> field : PROCESSING_MODE.entrySet()) {
      Map<String, String> values = field.getKey().contains("Body") ? BODY_MODES : HEADER_MODES;
      mode.string(field.getKey()).ifPresent(v -> {
        if (values.containsKey(v)) {
          out.put(field.getValue(), values.get(v));
        } else {
          mode.error(mode.at(field.getKey()), v.equals("FULL_DUPLEX_STREAMED") ? GlooFeatures.UNSUPPORTED
              : io.holdfast.api.Reasons.INVALID_VALUE, field.getKey() + " is one of " + new java.util.TreeSet<>(
              values.keySet()) + " in Holdfast, got " + v);
        }
      });
    }
    return new TrafficOptions.ProcessingMode(Optional.ofNullable(out.get("requestHeaders")),
        Optional.ofNullable(out.get("responseHeaders")), Optional.ofNullable(out.get("requestBody")),
        Optional.ofNullable(out.get("responseBody")), Optional.ofNullable(out.get("requestTrailers")),
        Optional.ofNullable(out.get("responseTrailers")));
  }
}
