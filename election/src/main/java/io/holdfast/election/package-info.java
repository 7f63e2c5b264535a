/**
 * Lease-based leader election that never takes the process down.
 *
 * <p>Losing the lease demotes the replica to follower at once and it campaigns again; leader-only work runs
 * through {@link io.holdfast.election.Leadership#runIfLeader} so that it only runs while this replica provably
 * holds the lease by its own monotonic clock. The lock is a small SPI ({@link io.holdfast.election.LeaseLock})
 * with a Kubernetes {@code coordination.k8s.io/v1} Lease implementation.
 *
 * <p>Contracts: parameters and return values are non-null unless documented; public value types are
 * immutable; {@link io.holdfast.election.LeaderElector} and its {@code Leadership} handle are thread-safe.
 * Nothing in this package knows about xDS or gateways.
 */
package io.holdfast.election;
