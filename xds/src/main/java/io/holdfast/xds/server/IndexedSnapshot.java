package io.holdfast.xds.server;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.holdfast.xds.snapshot.ProxyScopes;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The current snapshot plus what serving needs from it: each resource serialized once, as the {@link Any} every
 * stream is sent (so the bytes are shared by all streams and by later snapshots that keep the resource), its
 * content hash (delta versions), and a memo of SotW answers, since all proxies usually ask the same questions of
 * the same snapshot. Immutable apart from the memo, which is safe to share.
 */
final class IndexedSnapshot {

  /** Distinct SotW questions remembered per snapshot; beyond this, answers are computed each time. */
  private static final int MAX_MEMO = 4096;

  /**
   * One resource as served: its name, content hash and packed form (deterministic serialisation), and, once a
   * delta stream is sent it, its {@code Resource} entry in wire form, shared by every delta stream and by later
   * snapshots that keep this instance.
   */
  static final class Packed {

    private final String name;
    private final String version;
    private final Any any;
    private byte[] deltaEntry;

    Packed(String name, String version, Any any) {
      this.name = name;
      this.version = version;
      this.any = any;
    }

    String name() {
      return name;
    }

    String version() {
      return version;
    }

    Any any() {
      return any;
    }

    /** This resource as one {@code resources} field of a DeltaDiscoveryResponse, encoded on first use. */
    synchronized byte[] deltaEntry() {
      if (deltaEntry == null) {
        deltaEntry = Encoded.deltaEntry(name, version, any);
      }
      return deltaEntry;
    }
  }

  private static final AtomicLong SERIALS = new AtomicLong();

  private final XdsSnapshot snapshot;
  private final long serial = SERIALS.incrementAndGet();
  private final long previousSerial;
  private final Map<String, Map<String, Packed>> packed;
  private final Map<String, List<String>> changedSincePrevious;
  private final Map<SotwQuestion, SotwPlan> plans = new ConcurrentHashMap<>();
  /** Views by proxy name ({@link #view}); {@link #NO_SCOPE} for the empty view. */
  private final Map<String, IndexedSnapshot> views = new ConcurrentHashMap<>();
  /** The key of the empty view: no proxy name is empty ({@link ProxyIdentity#valid}). */
  private static final String NO_SCOPE = "";

  private IndexedSnapshot(XdsSnapshot snapshot, long previousSerial, Map<String, Map<String, Packed>> packed,
      Map<String, List<String>> changedSincePrevious) {
    this.snapshot = snapshot;
    this.previousSerial = previousSerial;
    this.packed = packed;
    this.changedSincePrevious = changedSincePrevious;
  }

  /**
   * Indexes {@code snapshot}. A resource that is the same instance as in {@code previous} keeps its packed form
   * and hash; one with equal content (equal hash) keeps the previous packed instance, so unchanged resources are
   * never held twice. Everything else is serialized exactly once, here.
   */
  static IndexedSnapshot of(XdsSnapshot snapshot, IndexedSnapshot previous) {
    Map<String, Map<String, Packed>> all = new HashMap<>();
    snapshot.resources().forEach((type, byName) -> {
      SortedMap<String, Message> old = previous == null ? null : previous.snapshot.ofType(type);
      Map<String, Packed> before = previous == null ? Map.of() : previous.packed.getOrDefault(type, Map.of());
      Map<String, Packed> packs = new HashMap<>();
      byName.forEach((name, resource) -> {
        Packed was = before.get(name);
        if (was != null && old != null && old.get(name) == resource) {
          packs.put(name, was);
          return;
        }
        byte[] bytes = Hashes.serialize(resource);
        String version = Hashes.of(bytes);
        // The type URL is set as bytes so writing the Any to each stream copies it instead of encoding it again.
        packs.put(name, was != null && was.version().equals(version) ? was : new Packed(name, version, Any.newBuilder()
            .setTypeUrlBytes(ByteString.copyFromUtf8(TYPE_URL_PREFIX + resource.getDescriptorForType().getFullName()))
            .setValue(ByteString.copyFrom(bytes))
            .build()));
      });
      all.put(type, Map.copyOf(packs));
    });
    return indexed(snapshot, all, previous);
  }

  /** {@code snapshot} with its packed resources, and what changed since {@code previous} (may be null). */
  private static IndexedSnapshot indexed(XdsSnapshot snapshot, Map<String, Map<String, Packed>> all,
      IndexedSnapshot previous) {
    Map<String, List<String>> changed = new HashMap<>();
    if (previous != null) {
      // Per type, the names added, removed or given new content (a new Packed instance) since `previous`.
      Set<String> types = new HashSet<>(all.keySet());
      types.addAll(previous.packed.keySet());
      for (String type : types) {
        Map<String, Packed> now = all.getOrDefault(type, Map.of());
        Map<String, Packed> before = previous.packed.getOrDefault(type, Map.of());
        TreeSet<String> names = new TreeSet<>();
        now.forEach((name, p) -> {
          if (before.get(name) != p) {
            names.add(name);
          }
        });
        before.keySet().stream().filter(name -> !now.containsKey(name)).forEach(names::add);
        changed.put(type, List.copyOf(names));
      }
    }
    return new IndexedSnapshot(snapshot, previous == null ? 0 : previous.serial, Map.copyOf(all),
        Map.copyOf(changed));
  }

  /**
   * The part of this snapshot proxy {@code proxyName} may be served, as a snapshot of its own (version: the
   * content hash of the view); null if this snapshot has no scopes (a snapshot built without them is served to
   * no proxy). Computed on first use and kept with this snapshot, so there is at most one view per proxy name
   * of the scopes (bounded by the Gateways' proxy names), plus one empty view shared by every other name.
   */
  IndexedSnapshot view(String proxyName) {
    ProxyScopes scopes = snapshot.scopes();
    if (!scopes.known()) {
      return null;
    }
    Optional<ProxyScopes.Scope> scope = scopes.of(proxyName);
    if (scope.isEmpty()) {
      return views.computeIfAbsent(NO_SCOPE, n -> viewOf(ProxyScopes.Scope.EMPTY, null));
    }
    return views.computeIfAbsent(proxyName, n -> viewOf(scope.get(), null));
  }

  /**
   * Computes now the views {@code previous} had computed (the proxies that are connected), each indexed against
   * its previous view, so a delta stream synced to the old view is planned from the names that changed. Called
   * by the publisher before this snapshot is made current; the views keep no reference to {@code previous}.
   */
  void viewsFollowing(IndexedSnapshot previous) {
    if (previous == null || !snapshot.scopes().known()) {
      return;
    }
    previous.views.forEach((proxyName, before) -> {
      if (!proxyName.equals(NO_SCOPE)) {
        snapshot.scopes().of(proxyName).ifPresent(scope -> views.put(proxyName, viewOf(scope, before)));
      }
    });
  }

  /** This snapshot's resources in {@code scope}, sharing their packed forms; indexed against {@code previous}. */
  private IndexedSnapshot viewOf(ProxyScopes.Scope scope, IndexedSnapshot previous) {
    Map<String, Map<String, Packed>> packs = new HashMap<>();
    TreeMap<String, SortedMap<String, Message>> resources = new TreeMap<>();
    StringBuilder fingerprint = new StringBuilder();
    scope.names().forEach((type, names) -> {
      SortedMap<String, Message> ofType = snapshot.ofType(type);
      Map<String, Packed> packedOfType = packed.getOrDefault(type, Map.of());
      Map<String, Packed> inView = new HashMap<>();
      TreeMap<String, Message> messages = new TreeMap<>();
      for (String name : names) {
        Packed p = packedOfType.get(name);
        if (p != null) {
          inView.put(name, p);
          messages.put(name, ofType.get(name));
          fingerprint.append(type).append('\u0000').append(name).append('\u0000').append(p.version()).append('\u0001');
        }
      }
      if (!inView.isEmpty()) {
        packs.put(type, Map.copyOf(inView));
        resources.put(type, messages);
      }
    });
    XdsSnapshot scoped = new XdsSnapshot(Hashes.of(fingerprint.toString()), resources, ProxyScopes.UNKNOWN);
    return indexed(scoped, packs, previous);
  }

  /** Unique per indexed snapshot in this JVM (never 0). */
  long serial() {
    return serial;
  }

  /**
   * The names of {@code typeUrl} whose presence or content differ from the snapshot with serial
   * {@code since}, sorted; null unless {@code since} is this snapshot or the one it replaced.
   */
  List<String> changedSince(long since, String typeUrl) {
    if (since == serial) {
      return List.of();
    }
    if (since == 0 || since != previousSerial) {
      return null;
    }
    return changedSincePrevious.getOrDefault(typeUrl, List.of());
  }

  /** Every resource of {@code typeUrl} as served, by name. */
  Map<String, Packed> packedOfType(String typeUrl) {
    return packed.getOrDefault(typeUrl, Map.of());
  }

  /** What {@link Any#pack} puts before the message's full name. */
  private static final String TYPE_URL_PREFIX = "type.googleapis.com/";

  XdsSnapshot snapshot() {
    return snapshot;
  }

  String version() {
    return snapshot.version();
  }

  SortedMap<String, Message> resources(String typeUrl) {
    return snapshot.ofType(typeUrl);
  }

  /** The content hash of one resource, or null if the snapshot does not have it. */
  String resourceVersion(String typeUrl, String name) {
    Packed p = packed(typeUrl, name);
    return p == null ? null : p.version();
  }

  /** One resource as served, or null if the snapshot does not have it. */
  Packed packed(String typeUrl, String name) {
    return packed.getOrDefault(typeUrl, Map.of()).get(name);
  }

  /** The SotW answer to {@code question}. */
  SotwPlan sotwPlan(SotwQuestion question) {
    SotwPlan plan = plans.get(question);
    if (plan == null) {
      plan = SotwPlan.of(this, question);
      if (plans.size() < MAX_MEMO) {
        plans.putIfAbsent(question, plan);
      }
    }
    return plan;
  }
}
