/**
 * {@code holdfast status}: the fleet's state read from every replica's admin {@code /state} over plain HTTP, with
 * no Kubernetes API in the path (so it works during the outage it is for). {@link StateFetcher} asks the replicas
 * in parallel with a bound per replica, {@link ReplicaState} reads one answer tolerantly (a field missing from an
 * older or newer replica reads as unknown), {@link FleetReport} judges the whole, and {@link FleetText} and
 * {@link FleetJson} render it.
 *
 * <p>Values are immutable; nothing here keeps state between runs. Arguments and results are never null.
 */
package io.holdfast.server.fleet;
