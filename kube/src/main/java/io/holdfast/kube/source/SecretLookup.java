package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Asks the API for a Secret the informer cache does not hold yet: the cache follows the API by the watch delay, so
 * a Secret created with the object that names it (one {@code kubectl apply} of both) may be missing from it when the
 * object's review arrives. One {@code list} per Secret type read ({@link KubeConfigSource#SECRET_TYPES}), narrowed by
 * {@code fieldSelector=metadata.name=NAME,type=TYPE} in the Secret's namespace: RBAC grants list and watch on Secrets,
 * never get, and no Secret of another type ever reaches this process. Only in the watched namespaces.
 *
 * <p>Bounds, per {@link Session} (one admission check): at most {@link #MAX_REQUESTS_PER_CHECK} requests, each
 * bounded by half the session's time (the client's request timeout), and none started unless it can end within the
 * session's time; the first request that gets no HTTP answer (timeout, refused) ends the session's lookups, as does
 * a source whose last probe got none. What is found is for the caller's check only; nothing is logged of it.
 */
final class SecretLookup {

  /**
   * Most requests one check makes. Reason: a review is answered within its check budget and the API server pays for
   * every request; 8 covers the Secrets of any ordinary object (two types each: 4 Secrets at worst, 8 when all are
   * of the first type read), and an object naming more has the rest judged on the cache alone.
   */
  static final int MAX_REQUESTS_PER_CHECK = 8;

  private final KubernetesClient client;
  private final List<String> watched;
  private final Duration time;
  private final LongSupplier nanoTime;

  /**
   * @param client   the source's client; requests go through a client derived from it with a request timeout of half
   *                 {@code time} and no retries
   * @param watched  the watched namespaces, empty for all
   * @param time     wall-clock time all lookups of one session may take
   */
  SecretLookup(KubernetesClient client, List<String> watched, Duration time, LongSupplier nanoTime) {
    this.watched = List.copyOf(watched);
    this.time = time;
    this.nanoTime = nanoTime;
    int timeout = (int) Math.max(1, Math.min(Integer.MAX_VALUE, perRequest().toMillis()));
    this.client = client.newClient(new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
        .withRequestTimeout(timeout).withRequestRetryBackoffLimit(0).build()).adapt(KubernetesClient.class);
  }

  private Duration perRequest() {
    return time.dividedBy(2);
  }

  /** The lookups of one check; {@code apiAnswers} false makes none (the source's last probe got no answer). */
  Session session(boolean apiAnswers) {
    return new Session(nanoTime.getAsLong(), !apiAnswers || time.isZero());
  }

  /** One check's lookups. Not thread-safe: one check's thread. */
  final class Session {
    private final long start;
    private boolean ended;
    private int requests;

    private Session(long start, boolean ended) {
      this.start = start;
      this.ended = ended;
    }

    /** Requests made so far. */
    int requests() {
      return requests;
    }

    /** The Secret {@code key} names, if the API has it (of a type read, in a watched namespace) and the bounds allow. */
    Optional<Secret> find(ResourceKey key) {
      if (!watched.isEmpty() && !watched.contains(key.namespace())) {
        return Optional.empty();
      }
      for (String type : KubeConfigSource.SECRET_TYPES) {
        if (ended || requests >= MAX_REQUESTS_PER_CHECK
            || nanoTime.getAsLong() - start + perRequest().toNanos() > time.toNanos()) {
          ended = true;
          return Optional.empty();
        }
        requests++;
        try {
          List<Secret> items = client.secrets().inNamespace(key.namespace()).withField("metadata.name", key.name())
              .withField("type", type).list().getItems();
          // Checked again: an API that ignored the selector must not hand over another Secret.
          Optional<Secret> found = items.stream().filter(s -> s.getMetadata() != null
              && key.name().equals(s.getMetadata().getName()) && type.equals(s.getType())).findFirst();
          if (found.isPresent()) {
            return found;
          }
        } catch (KubernetesClientException e) {
          // An HTTP answer (403, 500) is a miss for this type; none at all means the API is away: stop asking.
          ended = e.getCode() <= 0;
        } catch (RuntimeException e) {
          ended = true;
        }
        if (Thread.currentThread().isInterrupted()) {
          ended = true; // the check is over its budget
        }
      }
      return Optional.empty();
    }
  }
}
