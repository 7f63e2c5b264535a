package io.holdfast.api;

/**
 * Load-balancing policy of an upstream, Envoy's {@code Cluster.LbPolicy} of the same name. Proxyless gRPC clients
 * implement {@link #ROUND_ROBIN} and {@link #RING_HASH} everywhere, {@link #LEAST_REQUEST} only in some (gRFC
 * A48; the cluster also carries it as a typed {@code load_balancing_policy} with ROUND_ROBIN as the fallback), and
 * {@link #RANDOM} nowhere; validation warns about the last two on upstreams that gRPC clients reach.
 */
public enum LoadBalancing {
  ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM
}
