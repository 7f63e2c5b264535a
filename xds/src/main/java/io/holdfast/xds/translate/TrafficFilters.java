package io.holdfast.xds.translate;

import com.google.protobuf.Any;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.ratelimit.v3.RateLimitServiceConfig;
import io.envoyproxy.envoy.config.route.v3.RateLimit;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.XRateLimitHeadersRFCVersion;
import io.envoyproxy.envoy.extensions.compression.brotli.compressor.v3.Brotli;
import io.envoyproxy.envoy.extensions.compression.gzip.compressor.v3.Gzip;
import io.envoyproxy.envoy.extensions.compression.zstd.compressor.v3.Zstd;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.extensions.filters.http.buffer.v3.Buffer;
import io.envoyproxy.envoy.extensions.filters.http.buffer.v3.BufferPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.compressor.v3.Compressor;
import io.envoyproxy.envoy.extensions.filters.http.compressor.v3.CompressorOverrides;
import io.envoyproxy.envoy.extensions.filters.http.compressor.v3.CompressorPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.compressor.v3.ResponseDirectionOverrides;
import io.envoyproxy.envoy.extensions.filters.http.csrf.v3.CsrfPolicy;
import io.envoyproxy.envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimitPerRoute;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.metadata.v3.MetadataKey;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.envoyproxy.envoy.type.v3.TokenBucket;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.RouteTraffic;
import io.holdfast.ir.VirtualHost;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The traffic filters of {@link RouteTraffic}: local rate limit, global rate limit, CSRF and buffer (between the
 * authorisation filters and fault injection), and one compressor per algorithm (after fault injection, next to the
 * Router: it compresses what the upstream sends; a reply the fault filter makes itself never passes through it). Each is in the
 * connection manager only when a route of the chain uses it, and there {@code disabled}: a route enables it with
 * its own per-route config under the filter's name (Envoy enables a default-disabled filter on a route that has a
 * per-filter config for it). A route's output therefore depends on the route alone, and routes without the policy
 * are untouched.
 *
 * <p>Envoy listeners only: gRPC clients have none of these filters and reject a listener or route naming one.
 */
final class TrafficFilters {

  static final String LOCAL_RATE_LIMIT = "envoy.filters.http.local_ratelimit";
  static final String RATE_LIMIT = "envoy.filters.http.ratelimit";
  static final String CSRF = "envoy.filters.http.csrf";
  static final String BUFFER = "envoy.filters.http.buffer";
  static final String COMPRESSOR = "envoy.filters.http.compressor";
  /** The stats prefix of the local rate limiter ({@code http_local_rate_limit.<prefix>.rate_limited}). */
  static final String LOCAL_RATE_LIMIT_STATS = "http_local_rate_limiter";
  /**
   * The HCM-level buffer filter needs a limit even though it is disabled; each route that enables it sets its own.
   * Envoy's own example value.
   */
  static final int PLACEHOLDER_BUFFER_BYTES = 1024 * 1024;

  private TrafficFilters() {
  }

  /**
   * Which traffic filters the routes of some virtual hosts use, remembered per virtual host so a listener is
   * rebuilt without reading routes again.
   */
  record Usage(boolean localRateLimit, boolean rateLimit, boolean csrf, boolean buffer, Set<RouteTraffic.Compression> compression) {
    static final Usage NONE = new Usage(false, false, false, false, Set.of());

    Usage {
      compression = Set.copyOf(compression);
    }

    static Usage of(VirtualHost host) {
      Usage usage = NONE;
      for (io.holdfast.ir.Route route : host.routes()) {
        RouteTraffic traffic = route.traffic();
        if (!traffic.isEmpty()) {
          usage = usage.and(new Usage(traffic.localRateLimit().isPresent(), !traffic.rateLimits().isEmpty(),
              traffic.csrf().isPresent(), traffic.maxRequestBodyBytes().isPresent(), traffic.compression()));
        }
      }
      return usage;
    }

    Usage and(Usage other) {
      if (other.equals(NONE)) {
        return this;
      }
      Set<RouteTraffic.Compression> both = EnumSet.noneOf(RouteTraffic.Compression.class);
      both.addAll(compression);
      both.addAll(other.compression);
      return new Usage(localRateLimit || other.localRateLimit, rateLimit || other.rateLimit, csrf || other.csrf,
          buffer || other.buffer, both);
    }
  }

  private static StringMatcher originMatcher(RouteTraffic.OriginMatcher matcher) {
    StringMatcher.Builder envoy = StringMatcher.newBuilder().setIgnoreCase(matcher.ignoreCase());
    switch (matcher.type()) {
      case EXACT -> envoy.setExact(matcher.value());
      case PREFIX -> envoy.setPrefix(matcher.value());
      case SUFFIX -> envoy.setSuffix(matcher.value());
      case SAFE_REGEX -> envoy.setSafeRegex(RegexMatcher.newBuilder().setRegex(matcher.value()));
    }
    return envoy.build();
  }

  /**
   * Local rate limit, global rate limit (only with a rate-limit service on the chain: without one Envoy would
   * refuse the filter, and the front end has warned); then come {@link #afterRateLimits}: a request over a limit is
   * refused before anything is buffered.
   */
  static List<HttpFilter> rateLimits(Usage usage, HttpListenerOptions options) {
    List<HttpFilter> filters = new ArrayList<>();
    if (usage.localRateLimit()) {
      filters.add(disabled(LOCAL_RATE_LIMIT, LocalRateLimit.newBuilder().setStatPrefix(LOCAL_RATE_LIMIT_STATS).build()));
    }
    if (usage.rateLimit() && options.rateLimitService().isPresent()) {
      filters.add(disabled(RATE_LIMIT, rateLimitFilter(options.rateLimitService().get())));
    }
    return filters;
  }

  /** CSRF, buffer: the filters between the rate limits and fault injection. */
  static List<HttpFilter> afterRateLimits(Usage usage) {
    List<HttpFilter> filters = new ArrayList<>();
    if (usage.csrf()) {
      filters.add(disabled(CSRF, CsrfPolicy.newBuilder().setFilterEnabled(percent(0)).build()));
    }
    if (usage.buffer()) {
      filters.add(disabled(BUFFER, Buffer.newBuilder()
          .setMaxRequestBytes(UInt32Value.of(PLACEHOLDER_BUFFER_BYTES)).build()));
    }
    return filters;
  }

  /** One compressor per algorithm some route uses, in {@link RouteTraffic.Compression} order. */
  static List<HttpFilter> afterFault(Usage usage) {
    List<HttpFilter> filters = new ArrayList<>();
    Set<RouteTraffic.Compression> ordered = EnumSet.noneOf(RouteTraffic.Compression.class);
    ordered.addAll(usage.compression());
    for (RouteTraffic.Compression algorithm : ordered) {
      filters.add(disabled(compressorName(algorithm), Compressor.newBuilder()
          .setCompressorLibrary(library(algorithm)).build()));
    }
    return filters;
  }

  /** The per-route configs that enable the route's filters, and its rate-limit descriptors. */
  static void decorate(io.holdfast.ir.Route route, Route.Builder envoy) {
    RouteTraffic traffic = route.traffic();
    if (traffic.isEmpty()) {
      return;
    }
    traffic.localRateLimit().ifPresent(limit -> envoy.putTypedPerFilterConfig(LOCAL_RATE_LIMIT,
        Any.pack(localRateLimit(limit))));
    if (!traffic.rateLimits().isEmpty() && envoy.hasRoute()) {
      // On the route action, where every Envoy version reads them; redirects and direct responses are not limited.
      for (RouteTraffic.Descriptor descriptor : traffic.rateLimits()) {
        envoy.getRouteBuilder().addRateLimits(descriptor(descriptor));
      }
      envoy.putTypedPerFilterConfig(RATE_LIMIT, Any.pack(RateLimitPerRoute.getDefaultInstance()));
    }
    traffic.csrf().ifPresent(csrf -> {
      CsrfPolicy.Builder policy = CsrfPolicy.newBuilder();
      if (csrf.shadow()) {
        policy.setFilterEnabled(percent(0)).setShadowEnabled(percent(100));
      } else {
        policy.setFilterEnabled(percent(100));
      }
      csrf.additionalOrigins().forEach(origin -> policy.addAdditionalOrigins(
          StringMatcher.newBuilder().setExact(origin)));
      csrf.originMatchers().forEach(matcher -> policy.addAdditionalOrigins(originMatcher(matcher)));
      envoy.putTypedPerFilterConfig(CSRF, Any.pack(policy.build()));
    });
    traffic.maxRequestBodyBytes().ifPresent(bytes -> envoy.putTypedPerFilterConfig(BUFFER,
        Any.pack(BufferPerRoute.newBuilder().setBuffer(Buffer.newBuilder()
            .setMaxRequestBytes(UInt32Value.of(bytes))).build())));
    for (RouteTraffic.Compression algorithm : traffic.compression()) {
      envoy.putTypedPerFilterConfig(compressorName(algorithm), Any.pack(CompressorPerRoute.newBuilder()
          .setOverrides(CompressorOverrides.newBuilder()
              .setResponseDirectionConfig(ResponseDirectionOverrides.getDefaultInstance()))
          .build()));
    }
  }

  static String compressorName(RouteTraffic.Compression algorithm) {
    return COMPRESSOR + "." + algorithm.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static HttpFilter disabled(String name, com.google.protobuf.Message config) {
    return HttpFilter.newBuilder().setName(name).setTypedConfig(Protos.pack(config)).setDisabled(true).build();
  }

  private static io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit rateLimitFilter(
      HttpListenerOptions.RateLimitService service) {
    return io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit.newBuilder()
        .setDomain(service.domain())
        .setTimeout(Protos.duration(service.timeout()))
        .setFailureModeDeny(!service.failOpen())
        .setEnableXRatelimitHeaders(io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit
            .XRateLimitHeadersRFCVersion.DRAFT_VERSION_03)
        .setRateLimitService(RateLimitServiceConfig.newBuilder()
            .setGrpcService(GrpcService.newBuilder().setEnvoyGrpc(GrpcService.EnvoyGrpc.newBuilder()
                .setClusterName(EnvoyNames.cluster(service.cluster()))))
            .setTransportApiVersion(ApiVersion.V3))
        .build();
  }

  private static LocalRateLimit localRateLimit(RouteTraffic.LocalRateLimit limit) {
    LocalRateLimit.Builder config = LocalRateLimit.newBuilder()
        .setStatPrefix(LOCAL_RATE_LIMIT_STATS)
        .setTokenBucket(TokenBucket.newBuilder()
            .setMaxTokens(limit.maxTokens())
            .setTokensPerFill(UInt32Value.of(limit.tokensPerFill()))
            .setFillInterval(Protos.duration(limit.fillInterval())))
        .setFilterEnabled(percent(100))
        .setFilterEnforced(percent(100));
    if (limit.responseHeaders()) {
      config.setEnableXRatelimitHeaders(XRateLimitHeadersRFCVersion.DRAFT_VERSION_03);
    }
    return config.build();
  }

  private static RateLimit descriptor(RouteTraffic.Descriptor descriptor) {
    RateLimit.Builder limit = RateLimit.newBuilder();
    for (RouteTraffic.Entry entry : descriptor.entries()) {
      RateLimit.Action.Builder action = RateLimit.Action.newBuilder();
      if (entry instanceof RouteTraffic.Entry.RemoteAddress) {
        action.setRemoteAddress(RateLimit.Action.RemoteAddress.getDefaultInstance());
      } else if (entry instanceof RouteTraffic.Entry.RequestHeader header) {
        action.setRequestHeaders(RateLimit.Action.RequestHeaders.newBuilder()
            .setHeaderName(header.header()).setDescriptorKey(header.key()));
      } else if (entry instanceof RouteTraffic.Entry.GenericKey generic) {
        action.setGenericKey(RateLimit.Action.GenericKey.newBuilder()
            .setDescriptorKey(generic.key()).setDescriptorValue(generic.value()));
      } else if (entry instanceof RouteTraffic.Entry.Metadata metadata) {
        MetadataKey.Builder key = MetadataKey.newBuilder().setKey(metadata.filter());
        metadata.path().forEach(segment -> key.addPath(MetadataKey.PathSegment.newBuilder().setKey(segment)));
        action.setMetadata(RateLimit.Action.MetaData.newBuilder()
            .setDescriptorKey(metadata.key())
            .setMetadataKey(key)
            .setSource(RateLimit.Action.MetaData.Source.DYNAMIC));
      }
      limit.addActions(action);
    }
    return limit.build();
  }

  private static TypedExtensionConfig library(RouteTraffic.Compression algorithm) {
    return switch (algorithm) {
      case GZIP -> TypedExtensionConfig.newBuilder().setName("gzip")
          .setTypedConfig(Protos.pack(Gzip.getDefaultInstance())).build();
      case BROTLI -> TypedExtensionConfig.newBuilder().setName("brotli")
          .setTypedConfig(Protos.pack(Brotli.getDefaultInstance())).build();
      case ZSTD -> TypedExtensionConfig.newBuilder().setName("zstd")
          .setTypedConfig(Protos.pack(Zstd.getDefaultInstance())).build();
    };
  }

  private static RuntimeFractionalPercent percent(int percent) {
    return RuntimeFractionalPercent.newBuilder()
        .setDefaultValue(FractionalPercent.newBuilder().setNumerator(percent)
            .setDenominator(FractionalPercent.DenominatorType.HUNDRED))
        .build();
  }
}
