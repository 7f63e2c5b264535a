package io.holdfast.ir;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An active health check the proxy runs against every endpoint of a cluster: {@code unhealthyThreshold} failed
 * probes in a row take an endpoint out, {@code healthyThreshold} good ones bring it back.
 */
public record HealthCheck(Duration timeout, Duration interval, int healthyThreshold, int unhealthyThreshold,
    Probe probe) {

  public HealthCheck {
    Cluster.requirePositive("healthCheck", "timeout", timeout);
    Cluster.requirePositive("healthCheck", "interval", interval);
    Cluster.requireRange("healthCheck", "healthyThreshold", healthyThreshold, 1, Integer.MAX_VALUE);
    Cluster.requireRange("healthCheck", "unhealthyThreshold", unhealthyThreshold, 1, Integer.MAX_VALUE);
    Objects.requireNonNull(probe, "probe");
  }

  /** What is sent. */
  public sealed interface Probe {

    /**
     * An HTTP GET of {@code path} (with {@code host} as authority, else the cluster's name); healthy if the status
     * is in one of {@code expectedStatuses} (empty: 200 only, the proxy's default).
     */
    record Http(String path, Optional<String> host, List<StatusRange> expectedStatuses) implements Probe {
      public Http {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(host, "host");
        expectedStatuses = List.copyOf(expectedStatuses);
        if (!path.startsWith("/")) {
          throw new IllegalArgumentException("health check path must start with /, got " + path);
        }
      }
    }

    /** A TCP connect. */
    record Tcp() implements Probe {
    }

    /** {@code grpc.health.v1.Health/Check} for {@code serviceName} (absent: the whole server). */
    record Grpc(Optional<String> serviceName) implements Probe {
      public Grpc {
        Objects.requireNonNull(serviceName, "serviceName");
      }
    }
  }

  /** HTTP statuses from {@code start} (inclusive) to {@code end} (exclusive), within 100-600. */
  public record StatusRange(int start, int end) {
    public StatusRange {
      if (start < 100 || end > 600 || start >= end) {
        throw new IllegalArgumentException("status range [" + start + ", " + end + ") is not within 100-600");
      }
    }
  }
}
