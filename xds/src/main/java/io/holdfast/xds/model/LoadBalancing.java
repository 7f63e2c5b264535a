package io.holdfast.xds.model;

/**
 * Load-balancing policy of an upstream, mapped 1:1 to Envoy's {@code Cluster.LbPolicy}. grpc-java's xDS client
 * rejects {@link #RANDOM} (it supports the other three), which validation reports as a warning.
 */
public enum LoadBalancing {
  ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM
}
