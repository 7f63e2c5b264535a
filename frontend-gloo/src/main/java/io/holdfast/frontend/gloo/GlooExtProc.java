package io.holdfast.frontend.gloo;

import java.util.Set;

/**
 * Gloo's per-virtual-host and per-route external processing settings ({@code extProc}, {@code extProcEarly},
 * {@code extProcLate} in an {@code options}: extproc.proto's {@code RouteSettings}, either {@code disabled} or
 * {@code overrides}).
 *
 * <p>Such a setting only tunes or turns off an ext_proc filter that Gloo's Settings (or a listener's options)
 * install; it installs none itself. Holdfast does not yet serve an ext_proc filter, and the objects that would
 * install one are rejected (Settings' {@code extProc*}: {@link GlooSettings#REJECTED_WHEN_SET}; listener options'
 * {@code extProc*}: unsupported fields). So a setting is read only when the Settings in use are known to install
 * no ext_proc filter (absent, or read): then Gloo's proxy has no filter for it to change, Holdfast serves the route
 * exactly as Gloo does, and the setting is reported as a warning that says it changes nothing. When the Settings are
 * rejected, whether they install a filter is unknown, so the setting is an error: the object is not served as if
 * the override had no effect. Only {@code disabled} and {@code overrides.processingMode} are read; the other
 * overrides (notably {@code grpcService}, which names a processing server) reject the object.
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
  private static final Set<String> PROCESSING_MODE = Set.of("requestHeaderMode", "responseHeaderMode",
      "requestBodyMode", "responseBodyMode", "requestTrailerMode", "responseTrailerMode");
  /** Envoy's ProcessingMode.HeaderSendMode (headers and trailers). */
  private static final Set<String> HEADER_MODES = Set.of("DEFAULT", "SEND", "SKIP");
  /** Envoy's ProcessingMode.BodySendMode. */
  private static final Set<String> BODY_MODES = Set.of("NONE", "STREAMED", "BUFFERED", "BUFFERED_PARTIAL",
      "FULL_DUPLEX_STREAMED");

  private GlooExtProc() {
  }

  /** Checks the {@code extProc*} fields of one {@code options} object; findings go to its list. */
  static void read(Node options, GlooSettings.State settings) {
    for (String field : java.util.List.of("extProc", "extProcEarly", "extProcLate")) {
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
        Node mode = overrides.child("processingMode").protoNames().only("processingMode", PROCESSING_MODE);
        for (String name : PROCESSING_MODE) {
          mode.string(name).filter(v -> !(name.endsWith("BodyMode") ? BODY_MODES : HEADER_MODES).contains(v))
              .ifPresent(v -> mode.error(mode.at(name), io.holdfast.api.Reasons.INVALID_VALUE, name + " is one of "
                  + (name.endsWith("BodyMode") ? BODY_MODES : HEADER_MODES) + ", got " + v));
        }
      }
    }
    if (settings instanceof GlooSettings.State.Rejected) {
      setting.error(setting.path, SETTINGS_REJECTED, field + " tunes the " + field + " filter of Gloo's Settings,"
          + " and " + GlooSettings.describe(settings) + "; whether that filter exists is unknown, so the object is"
          + " not served");
      return;
    }
    setting.warn(setting.path, NOT_CONFIGURED, field + " tunes the " + field + " filter that Gloo's Settings"
        + " install, and " + GlooSettings.describe(settings) + ": Gloo's proxy has no such filter, so this setting"
        + " changes nothing and the routes are served without external processing, as Gloo serves them");
  }
}
