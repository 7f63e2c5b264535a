package io.holdfast.xds.server;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import com.google.common.collect.Interner;
import com.google.common.collect.Interners;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one delta stream knows about one resource type: the proxy's subscriptions, the version of each resource
 * it holds, the names it has been told do not exist, responses awaiting a reply, and the rejected snapshot
 * version. Unlike java-control-plane's delta observer it reads {@code initial_resource_versions} and remembers
 * that a missing name was already reported as removed. An idle synced stream keeps what its proxy holds as a
 * reference to the snapshot it synced to rather than a map per name (see {@link #holdsMap()}), and its
 * subscriptions as a set shared with every stream asking the same names.
 * Thread-safe: every method synchronises on this object and calls out to nothing.
 *
 * <p>A NACK makes the proxy's versions of the resources in the rejected response unknown: gRPC clients (gRFC
 * A46) and Envoy apply the valid resources of a response they reject. Those names are sent again (or removed
 * again) on the next snapshot version whatever it holds, a revert to what the proxy had ACKed included; while
 * the snapshot is still the rejected version they are held back, and nothing else is.
 */
final class DeltaTypeState {

  /**
   * One delta response: its snapshot version (the served view's), the resources (name to version), the removed
   * names, the snapshot the proxy holds (for the names it wants) once it ACKs this, if that is known, and the
   * version of the whole snapshot it came from, which a NACK of it reports.
   */
  record Sent(String version, Map<String, String> resources, List<String> removed, Sync syncTo,
      String sourceVersion) {
  }

  /**
   * "After this, what the proxy holds of every name it wants is exactly snapshot {@code serial}", valid while
   * nothing else changed the stream's state ({@code generation}).
   */
  record Sync(IndexedSnapshot snapshot, String version, boolean wildcard, long generation) {

    long serial() {
      return snapshot.serial();
    }
  }

  /** A response to send: changed resources by name (sorted) and names to remove. */
  record Plan(Map<String, IndexedSnapshot.Packed> resources, List<String> removed) {
  }

  /**
   * At most this many names a stream has been told do not exist are remembered (per type). Reason: the memory of
   * one stream must not grow with what the proxy asks for. Only names the proxy subscribed to by name are
   * remembered at all (a wildcard stream is told of a removal only while it holds the name, so it needs no
   * memory of removals); past the bound, a further missing subscribed name is reported as removed again when
   * the snapshot changes, a duplicate removal the xDS protocol lets the proxy ignore.
   */
  static final int MAX_TOLD_ABSENT = 10_000;

  /** Subscription sets, shared by every stream of the same type asking the same names; weakly held. */
  private static final Interner<Set<String>> SUBSCRIPTIONS = Interners.newWeakInterner();

  /**
   * The version of each resource the proxy holds, by name; null while that is exactly what {@link #heldSnapshot}
   * has of every name the stream wants (the usual state of an idle stream), so thousands of synced streams keep
   * no map each. Materialised again by any change other than an ACK that keeps the stream synced.
   */
  private Map<String, String> clientHas = new HashMap<>();
  /** While {@link #clientHas} is null: the snapshot the proxy holds, wildcard or not, and the type. */
  private IndexedSnapshot heldSnapshot;
  private boolean heldWildcard;
  private String typeUrl;
  /** Immutable and interned; replaced (copy on change) when the proxy subscribes or unsubscribes. */
  private Set<String> subscribed = Set.of();
  /** Subscribed names the proxy was told do not exist (so it is told once); see {@link #MAX_TOLD_ABSENT}. */
  private final Set<String> toldAbsent = new HashSet<>();
  /** Names of a NACKed response: the proxy may or may not have applied them. */
  private final Set<String> unknown = new HashSet<>();
  private final Map<String, Sent> outstanding = new HashMap<>();
  private final Set<String> nackedNonces = new HashSet<>();
  private boolean seenFirstRequest;
  /**
   * Serial of an {@link IndexedSnapshot} whose resources the proxy holds exactly, for every name it wants (0:
   * not known). Lets a new snapshot be planned from the names that changed since that one instead of from
   * every name, which is what keeps a push to many delta streams cheap.
   */
  private long syncedTo;
  private boolean syncedWildcard;
  /** Counts changes to subscriptions or held state other than ACKs of synced responses. */
  private long generation;
  /** What the plan being sent will sync the stream to, picked up by {@link #sent}. */
  private Sync pendingSync;
  private String rejectedVersion;
  /** The snapshot version of the last response the proxy ACKed, kept through NACKs (for display). */
  private String ackedVersion;
  /** The version of the last response sent (for display; null before one). */
  private String sentVersion;

  /** Names the proxy subscribed to by name. */
  synchronized int subscribedCount() {
    return subscribed.size();
  }

  /** Applies a request (reply to a nonce first, then subscription changes) and classifies it. */
  synchronized Reply onRequest(DeltaDiscoveryRequest request) {
    boolean plainAck = seenFirstRequest && !request.hasErrorDetail() && !request.getResponseNonce().isEmpty()
        && request.getResourceNamesSubscribeCount() == 0 && request.getResourceNamesUnsubscribeCount() == 0;
    Sync acked = plainAck ? Optional.ofNullable(outstanding.get(request.getResponseNonce())).map(Sent::syncTo)
        .orElse(null) : null;
    boolean keepsSync = acked != null && acked.generation() == generation;
    if (clientHas == null && !keepsSync) {
      clientHas = heldOf(heldSnapshot, heldWildcard);
      heldSnapshot = null;
    }
    syncedTo = 0;
    if (keepsSync) {
      syncedTo = acked.serial();
      syncedWildcard = acked.wildcard();
    } else if (!plainAck) {
      generation++;
    }
    if (!seenFirstRequest) {
      seenFirstRequest = true;
      // A reconnecting proxy says what it already holds, so unchanged resources are not sent again.
      request.getInitialResourceVersionsMap().forEach((name, version) -> clientHas.put(Names.shared(name), version));
    }
    Reply reply = applyReply(request);
    if (plainAck && reply.kind() != Reply.Kind.OK) {
      generation++;
      syncedTo = 0;
    }
    if (request.getResourceNamesUnsubscribeCount() > 0 || request.getResourceNamesSubscribeCount() > 0) {
      Set<String> names = new HashSet<>(subscribed);
      for (String name : request.getResourceNamesUnsubscribeList()) {
        names.remove(name);
        clientHas.remove(name);
        toldAbsent.remove(name);
        unknown.remove(name);
      }
      for (String name : request.getResourceNamesSubscribeList()) {
        names.add(Names.shared(name));
        toldAbsent.remove(name); // asking again deserves an answer again
      }
      subscribed = SUBSCRIPTIONS.intern(Set.copyOf(names));
    }
    if (keepsSync && syncedTo != 0) {
      dropHeldMap(acked);
    }
    return reply;
  }

  private Reply applyReply(DeltaDiscoveryRequest request) {
    String nonce = request.getResponseNonce();
    if (nonce.isEmpty()) {
      return request.hasErrorDetail() ? Reply.nack("", List.of()) : Reply.OK;
    }
    Sent sent = outstanding.remove(nonce);
    if (!request.hasErrorDetail()) {
      if (sent == null) {
        return Reply.UNKNOWN_NONCE;
      }
      ackedVersion = sent.version();
      if (clientHas != null) {
        clientHas.putAll(sent.resources());
      }
      toldAbsent.removeAll(sent.resources().keySet());
      unknown.removeAll(sent.resources().keySet());
      for (String name : sent.removed()) {
        if (clientHas != null) {
          clientHas.remove(name);
        }
        rememberToldAbsent(name);
        unknown.remove(name);
      }
      return Reply.OK;
    }
    if (sent == null) {
      return nackedNonces.contains(nonce) ? Reply.REPEATED_NACK : Reply.nack("", List.of());
    }
    if (nackedNonces.size() >= 64) {
      nackedNonces.clear(); // only repeats of recent nonces matter; keep this bounded
    }
    nackedNonces.add(nonce);
    rejectedVersion = sent.version();
    for (String name : sent.resources().keySet()) {
      forgetHeld(name);
    }
    sent.removed().forEach(this::forgetHeld);
    List<String> names = new ArrayList<>(new TreeSet<>(sent.resources().keySet()));
    return Reply.nack(sent.sourceVersion(), names);
  }

  /**
   * Remembers that the proxy knows {@code name} does not exist, if that is ever needed: only a name it asked for
   * by name is owed that answer (a wildcard proxy is sent a removal only for what it holds), and only up to
   * {@link #MAX_TOLD_ABSENT} names. Without this rule a wildcard stream kept every name ever removed.
   */
  private void rememberToldAbsent(String name) {
    if (subscribed.contains(name) && toldAbsent.size() < MAX_TOLD_ABSENT) {
      toldAbsent.add(name);
    }
  }

  /** How many names this stream remembers telling the proxy do not exist (bounded by {@link #MAX_TOLD_ABSENT}). */
  synchronized int toldAbsentCount() {
    return toldAbsent.size();
  }

  /** The snapshot version of the last response the proxy ACKed; null if it has ACKed none on this stream. */
  synchronized String ackedVersion() {
    return ackedVersion;
  }

  /**
   * The stream ACKed a response that syncs it to {@code sync}'s snapshot: what the proxy holds is now that
   * snapshot's resources of every wanted name. Keeps a reference to the snapshot instead of a map, checking the
   * map against it the first time (a map may hold extra names, e.g. from initial_resource_versions).
   */
  private void dropHeldMap(Sync sync) {
    if (clientHas != null && !clientHas.equals(heldOf(sync.snapshot(), sync.wildcard()))) {
      return;
    }
    clientHas = null;
    heldSnapshot = sync.snapshot();
    heldWildcard = sync.wildcard();
  }

  /** What a synced proxy holds of {@code snapshot}: its version of each wanted name it has. */
  private Map<String, String> heldOf(IndexedSnapshot snapshot, boolean wildcard) {
    Map<String, IndexedSnapshot.Packed> all = snapshot.packedOfType(typeUrl);
    Map<String, String> held = new HashMap<>();
    if (wildcard || subscribed.contains("*")) {
      all.forEach((name, packed) -> held.put(name, packed.version()));
    } else {
      for (String name : subscribed) {
        IndexedSnapshot.Packed packed = all.get(name);
        if (packed != null) {
          held.put(name, packed.version());
        }
      }
    }
    return held;
  }

  /** Whether what the proxy holds is kept as a map (false: by reference to the synced snapshot). */
  synchronized boolean holdsMap() {
    return clientHas != null;
  }

  /** The version of {@code name} the proxy holds, or null. */
  private String held(String name) {
    if (clientHas != null) {
      return clientHas.get(name);
    }
    boolean wanted = heldWildcard || subscribed.contains("*") || subscribed.contains(name);
    return wanted ? heldSnapshot.resourceVersion(typeUrl, name) : null;
  }

  private void forgetHeld(String name) {
    clientHas.remove(name);
    toldAbsent.remove(name);
    unknown.add(name);
  }

  /**
   * The response this stream needs from {@code snapshot} (the current one), or empty if none: resources whose
   * version differs from what the proxy holds or is unknown (all of the type when wildcard, else the subscribed
   * ones), removals for held or unknown names that are gone and for subscribed names that do not exist and were
   * not reported yet. While the snapshot is the rejected version, the names of the rejected response are left
   * out; a different version ends that for good, even if the snapshot later returns to the rejected one.
   */
  synchronized Optional<Plan> plan(IndexedSnapshot snapshot, String typeUrl, boolean wildcard) {
    if (rejectedVersion != null && !snapshot.version().equals(rejectedVersion)) {
      rejectedVersion = null;
    }
    this.typeUrl = typeUrl;
    boolean holdBackUnknown = rejectedVersion != null;
    boolean everything = wildcard || subscribed.contains("*");
    Map<String, IndexedSnapshot.Packed> all = snapshot.packedOfType(typeUrl);
    boolean pristine = rejectedVersion == null && unknown.isEmpty();
    List<String> changedNames = pristine && syncedTo != 0 && syncedWildcard == wildcard
        ? snapshot.changedSince(syncedTo, typeUrl) : null;
    Map<String, IndexedSnapshot.Packed> changed = new TreeMap<>();
    Set<String> removed = new TreeSet<>();
    if (changedNames != null) {
      // The proxy holds exactly the snapshot `syncedTo` of every name it wants: only the names that changed
      // since can need anything, and each by the same rules as below.
      for (String name : changedNames) {
        IndexedSnapshot.Packed packed = all.get(name);
        boolean wanted = subscribed.contains(name) || (everything && packed != null);
        if (packed != null) {
          if (wanted && !packed.version().equals(held(name))) {
            changed.put(name, packed);
          }
        } else if (held(name) != null || (wanted && !toldAbsent.contains(name))) {
          removed.add(name);
        }
      }
    } else {
      if (clientHas == null) {
        clientHas = heldOf(heldSnapshot, heldWildcard);
        heldSnapshot = null;
      }
      Set<String> wanted = new TreeSet<>(subscribed);
      wanted.remove("*");
      if (everything) {
        wanted.addAll(all.keySet());
      }
      for (String name : wanted) {
        boolean isUnknown = unknown.contains(name);
        if (isUnknown && holdBackUnknown) {
          continue;
        }
        IndexedSnapshot.Packed packed = all.get(name);
        if (packed == null) {
          if (isUnknown || (!clientHas.containsKey(name) && !toldAbsent.contains(name))) {
            removed.add(name);
          }
          continue;
        }
        if (isUnknown || !packed.version().equals(clientHas.get(name))) {
          changed.put(name, packed);
        }
      }
      for (String held : clientHas.keySet()) {
        if (!all.containsKey(held)) {
          removed.add(held);
        }
      }
      if (!holdBackUnknown) {
        // A wildcard stream does not "want" a name the snapshot lacks, but the proxy may hold it.
        unknown.stream().filter(name -> !all.containsKey(name)).forEach(removed::add);
      }
    }
    if (changed.isEmpty() && removed.isEmpty()) {
      if (pristine) {
        syncedTo = snapshot.serial();
        if (clientHas == null) {
          heldSnapshot = snapshot; // nothing the stream wants changed: it holds this snapshot's as well
        }
        syncedWildcard = wildcard;
      }
      return Optional.empty();
    }
    pendingSync = pristine ? new Sync(snapshot, snapshot.version(), wildcard, generation) : null;
    return Optional.of(new Plan(changed, List.copyOf(removed)));
  }

  /** Records a response that went out, from the response itself (it carries every name and version). */
  synchronized void sent(DeltaDiscoveryResponse response) {
    Map<String, String> versions = new TreeMap<>();
    for (Resource resource : response.getResourcesList()) {
      versions.put(resource.getName(), resource.getVersion());
    }
    record(response.getNonce(), response.getSystemVersionInfo(), versions, response.getRemovedResourcesList(),
        response.getSystemVersionInfo());
  }

  /**
   * Records that {@code plan}, planned from the snapshot (view) {@code version} of the snapshot
   * {@code sourceVersion}, went out under {@code nonce}.
   */
  synchronized void sent(String nonce, String version, Plan plan, String sourceVersion) {
    Map<String, String> versions = new TreeMap<>();
    plan.resources().forEach((name, packed) -> versions.put(name, packed.version()));
    record(nonce, version, versions, plan.removed(), sourceVersion);
  }

  /** True while a response sent on this stream has had no reply (ACK or NACK) yet. */
  synchronized boolean awaitingReply() {
    return !outstanding.isEmpty();
  }

  /** The version of the last response sent on this stream; null before one (see SotwTypeState#sentVersion). */
  synchronized String sentVersion() {
    return sentVersion;
  }

  private void record(String nonce, String version, Map<String, String> versions, List<String> removed,
      String sourceVersion) {
    sentVersion = version;
    Sync sync = pendingSync != null && pendingSync.version().equals(version) ? pendingSync : null;
    pendingSync = null;
    outstanding.put(nonce, new Sent(version, Map.copyOf(versions), List.copyOf(removed), sync, sourceVersion));
  }
}
