package io.holdfast.frontend.options;

import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficOptions;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.RouteTraffic;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared lowering of global rate-limit descriptors and CSRF policies, for both front ends that read {@link TrafficOptions}
 * (Holdfast's routes and the Gateway API's TrafficPolicy): each entry becomes the IR entry Envoy's
 * {@code rate_limits} action is built from; and of tracing settings, whose sampling defaults to every request (100 %,
 * Envoy's default and Gloo's).
 */
public final class TrafficOptionsLowering {

  /**
   * Where Holdfast expects the JWT filter to leave a provider's verified payload: the dynamic metadata namespace of
   * {@code envoy.filters.http.jwt_authn}, under the provider's name ({@code payload_in_metadata}).
   */
  public static final String JWT_METADATA = "envoy.filters.http.jwt_authn";

  private TrafficOptionsLowering() {
  }

  /** Validated tracing settings whose collector is {@code cluster}. */
  public static HttpListenerOptions.Tracing tracing(TrafficOptions.Tracing tracing, ResourceKey cluster) {
    return new HttpListenerOptions.Tracing(cluster, tracing.serviceName(), tracing.authority(),
        tracing.clientSampling().orElse(HttpListenerOptions.Tracing.ALL),
        tracing.randomSampling().orElse(HttpListenerOptions.Tracing.ALL),
        tracing.overallSampling().orElse(HttpListenerOptions.Tracing.ALL), tracing.verbose(),
        tracing.requestHeaderTags());
  }

  /** A route's CSRF policy: the exact origins, then the matchers, in order. */
  public static RouteTraffic.Csrf csrf(TrafficOptions.Csrf csrf) {
    return new RouteTraffic.Csrf(csrf.additionalOrigins(), csrf.additionalOriginMatchers().stream()
        .map(m -> new RouteTraffic.OriginMatcher(RouteTraffic.MatchType.valueOf(m.type().name()), m.value(),
            m.ignoreCase()))
        .toList(), csrf.shadow());
  }

  /** OpenTelemetry attributes as written; their depth is bounded by the parser. */
  public static List<HttpListenerOptions.OtelAttribute> otelAttributes(List<TrafficOptions.OtelAttribute> written) {
    return written.stream().map(a -> new HttpListenerOptions.OtelAttribute(a.key(), otelValue(a.value()))).toList();
  }

  private static HttpListenerOptions.OtelValue otelValue(TrafficOptions.OtelValue value) {
    if (value instanceof TrafficOptions.OtelValue.Array array) {
      return new HttpListenerOptions.OtelValue.Array(array.values().stream()
          .map(TrafficOptionsLowering::otelValue).toList());
    }
    if (value instanceof TrafficOptions.OtelValue.KvList list) {
      return new HttpListenerOptions.OtelValue.KvList(otelAttributes(list.values()));
    }
    return new HttpListenerOptions.OtelValue.Text(((TrafficOptions.OtelValue.Text) value).value());
  }

  /** The descriptors, in order. */
  public static List<RouteTraffic.Descriptor> descriptors(List<TrafficOptions.Descriptor> descriptors) {
    return descriptors.stream()
        .map(d -> new RouteTraffic.Descriptor(d.entries().stream().map(TrafficOptionsLowering::entry).toList()))
        .toList();
  }

  /** One descriptor entry; a JWT claim is read from the JWT filter's metadata (dots name nested claims). */
  public static RouteTraffic.Entry entry(TrafficOptions.Entry entry) {
    if (entry instanceof TrafficOptions.Entry.RequestHeader header) {
      return new RouteTraffic.Entry.RequestHeader(header.header(), header.key());
    }
    if (entry instanceof TrafficOptions.Entry.GenericKey generic) {
      return new RouteTraffic.Entry.GenericKey(generic.key(), generic.value());
    }
    if (entry instanceof TrafficOptions.Entry.JwtClaim claim) {
      List<String> path = new ArrayList<>();
      path.add(claim.provider());
      path.addAll(List.of(claim.claim().split("\\.")));
      return new RouteTraffic.Entry.Metadata(claim.key(), JWT_METADATA, path);
    }
    return new RouteTraffic.Entry.RemoteAddress();
  }
}
