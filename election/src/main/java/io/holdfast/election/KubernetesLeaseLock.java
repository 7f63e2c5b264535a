package io.holdfast.election;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LeaseLock} on a {@code coordination.k8s.io/v1} Lease through fabric8. Updates carry the
 * resourceVersion they read, so a stale write gets 409 Conflict. The watch is a fabric8 informer on the one
 * Lease; it reports healthy only while actually watching.
 */
public final class KubernetesLeaseLock implements LeaseLock, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesLeaseLock.class);

  private final KubernetesClient client;
  private final boolean ownsClient;
  private final String namespace;
  private final String name;

  private KubernetesLeaseLock(KubernetesClient client, boolean ownsClient, String namespace, String name) {
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * A lock with its own client derived from {@code base}: every request bounded by {@code callTimeout}
   * (connect and request) and no client-side retries, so failures reach the elector instead of being hidden.
   */
  public static KubernetesLeaseLock create(Config base, String namespace, String name, Duration callTimeout) {
    Config config = electionConfig(base, callTimeout);
    return new KubernetesLeaseLock(new KubernetesClientBuilder().withConfig(config).build(), true, namespace, name);
  }

  /** A lock on a client the caller configured (and closes). */
  public static KubernetesLeaseLock using(KubernetesClient client, String namespace, String name) {
    return new KubernetesLeaseLock(client, false, namespace, name);
  }

  /** {@code base} with bounded calls and retries switched off. */
  public static Config electionConfig(Config base, Duration callTimeout) {
    int millis = Math.toIntExact(Math.max(1, callTimeout.toMillis()));
    return new ConfigBuilder(base)
        .withRequestTimeout(millis)
        .withConnectionTimeout(millis)
        .withRequestRetryBackoffLimit(0)
        .build();
  }

  private Resource<Lease> lease() {
    return client.leases().inNamespace(namespace).withName(name);
  }

  @Override
  public Optional<VersionedRecord> get() throws LockException {
    try {
      return Optional.ofNullable(lease().get()).map(LeaseMapping::toRecord);
    } catch (RuntimeException e) {
      throw translate("get", e);
    }
  }

  @Override
  public VersionedRecord create(LeaseRecord record) throws LockException {
    try {
      Lease created = client.leases().inNamespace(namespace)
          .resource(LeaseMapping.toLease(namespace, name, record, null)).create();
      return LeaseMapping.toRecord(created);
    } catch (RuntimeException e) {
      throw translate("create", e);
    }
  }

  @Override
  public VersionedRecord update(VersionedRecord current, LeaseRecord next) throws LockException {
    if (current.resourceVersion().isEmpty()) {
      throw new LockException(LockException.Cause.OTHER, "refusing an unconditional update: no resourceVersion");
    }
    try {
      Lease updated = client.leases().inNamespace(namespace)
          .resource(LeaseMapping.toLease(namespace, name, next, current.resourceVersion())).update();
      return LeaseMapping.toRecord(updated);
    } catch (RuntimeException e) {
      throw translate("update", e);
    }
  }

  @Override
  public String describe() {
    return "Lease " + namespace + "/" + name;
  }

  @Override
  public LockWatch watch(Consumer<Optional<VersionedRecord>> onChange) {
    SharedIndexInformer<Lease> informer = lease().runnableInformer(0);
    informer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Lease obj) {
        onChange.accept(Optional.of(LeaseMapping.toRecord(obj)));
      }

      @Override
      public void onUpdate(Lease oldObj, Lease newObj) {
        onChange.accept(Optional.of(LeaseMapping.toRecord(newObj)));
      }

      @Override
      public void onDelete(Lease obj, boolean deletedFinalStateUnknown) {
        onChange.accept(Optional.empty());
      }
    });
    // Keep re-listing and re-watching whatever fails: while it does, isHealthy() is false and the elector polls.
    informer.exceptionHandler((started, failure) -> {
      log.debug("watch of {} failed, retrying: {}", describe(), failure.toString());
      return true;
    });
    informer.start();
    return new LockWatch() {
      @Override
      public boolean isHealthy() {
        return informer.isRunning() && informer.isWatching();
      }

      @Override
      public void close() {
        informer.stop();
      }
    };
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  private LockException translate(String op, RuntimeException e) {
    String what = op + " " + describe();
    if (e instanceof KubernetesClientException kce && kce.getCode() > 0) {
      int code = kce.getCode();
      if (code == 404 && op.equals("create")) {
        // Creating needs only the namespace to exist, so 404 here names the namespace, never a race.
        return new LockException(LockException.Cause.NAMESPACE_NOT_FOUND,
            "lease namespace '" + namespace + "' not found (HTTP 404 on create of " + describe() + ")", e);
      }
      LockException.Cause cause = switch (code) {
        case 409 -> op.equals("create") ? LockException.Cause.ALREADY_EXISTS : LockException.Cause.CONFLICT;
        case 404 -> LockException.Cause.NOT_FOUND;
        case 401, 403 -> LockException.Cause.FORBIDDEN;
        case 408, 504 -> LockException.Cause.TIMEOUT;
        default -> LockException.Cause.OTHER;
      };
      return new LockException(cause, what + ": HTTP " + code + " " + shortStatus(kce), e);
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpTimeoutException || t instanceof InterruptedIOException
          || t instanceof java.util.concurrent.TimeoutException) {
        return new LockException(LockException.Cause.TIMEOUT, what + ": timed out", e);
      }
      if (t instanceof ConnectException || t instanceof IOException) {
        return new LockException(LockException.Cause.UNREACHABLE, what + ": " + t, e);
      }
    }
    log.debug("unclassified lock failure on {}", what, e);
    return new LockException(LockException.Cause.OTHER, what + ": " + e, e);
  }

  private static String shortStatus(KubernetesClientException e) {
    return e.getStatus() != null && e.getStatus().getReason() != null ? e.getStatus().getReason() : "";
  }
}
