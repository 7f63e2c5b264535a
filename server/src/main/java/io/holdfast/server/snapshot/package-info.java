/**
 * The last-known xDS snapshot, kept on disk so a replica that restarts while the Kubernetes API is down can
 * still serve full config (marked stale) to new proxies.
 *
 * <p>{@link io.holdfast.server.snapshot.SnapshotStore} is the entry point; it is thread-safe. Arguments and
 * results are never null. Disk problems after {@code open} are logged and counted, never thrown.
 */
package io.holdfast.server.snapshot;
