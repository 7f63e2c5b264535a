package io.holdfast.xds.server;

import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.VersionedResource;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * version. Kept here rather than taken from java-control-plane's observer because that one neither reads
 * {@code initial_resource_versions} nor remembers that a missing name was already reported as removed.
 * Thread-safe: every method synchronises on this object and calls out to nothing.
 *
 * <p>A NACK makes the proxy's versions of the resources in the rejected response unknown: gRPC clients (gRFC
 * A46) and Envoy apply the valid resources of a response they reject. Those names are sent again (or removed
 * again) on the next snapshot version whatever it holds, a revert to what the proxy had ACKed included; while
 * the snapshot is still the rejected version they are held back, and nothing else is.
 */
final class DeltaTypeState {

  /** One delta response: its snapshot version, the resources (name to version) and the removed names. */
  record Sent(String version, Map<String, String> resources, List<String> removed) {
  }

  /** A response to send: changed resources by name (sorted) and names to remove. */
  record Plan(Map<String, VersionedResource<?>> resources, List<String> removed) {
  }

  private final Map<String, String> clientHas = new HashMap<>();
  private final Set<String> subscribed = new HashSet<>();
  private final Set<String> toldAbsent = new HashSet<>();
  /** Names of a NACKed response: the proxy may or may not have applied them. */
  private final Set<String> unknown = new HashSet<>();
  private final Map<String, Sent> outstanding = new HashMap<>();
  private final Set<String> nackedNonces = new HashSet<>();
  private boolean seenFirstRequest;
  private String rejectedVersion;
  /** The snapshot version of the last response the proxy ACKed, kept through NACKs (for display). */
  private String ackedVersion;

  /** Applies a request (reply to a nonce first, then subscription changes) and classifies it. */
  synchronized Reply onRequest(DeltaDiscoveryRequest request) {
    if (!seenFirstRequest) {
      seenFirstRequest = true;
      // A reconnecting proxy says what it already holds, so unchanged resources are not sent again.
      clientHas.putAll(request.getInitialResourceVersionsMap());
    }
    Reply reply = applyReply(request);
    for (String name : request.getResourceNamesUnsubscribeList()) {
      subscribed.remove(name);
      clientHas.remove(name);
      toldAbsent.remove(name);
      unknown.remove(name);
    }
    for (String name : request.getResourceNamesSubscribeList()) {
      subscribed.add(name);
      toldAbsent.remove(name); // asking again deserves an answer again
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
      clientHas.putAll(sent.resources());
      toldAbsent.removeAll(sent.resources().keySet());
      unknown.removeAll(sent.resources().keySet());
      for (String name : sent.removed()) {
        clientHas.remove(name);
        toldAbsent.add(name);
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
    return Reply.nack(sent.version(), names);
  }

  /** The snapshot version of the last response the proxy ACKed; null if it has ACKed none on this stream. */
  synchronized String ackedVersion() {
    return ackedVersion;
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
    boolean holdBackUnknown = rejectedVersion != null;
    boolean everything = wildcard || subscribed.contains("*");
    SortedMap<String, Message> all = snapshot.resources(typeUrl);
    Set<String> wanted = new TreeSet<>(subscribed);
    wanted.remove("*");
    if (everything) {
      wanted.addAll(all.keySet());
    }
    Map<String, VersionedResource<?>> changed = new LinkedHashMap<>();
    Set<String> removed = new TreeSet<>();
    for (String name : wanted) {
      boolean isUnknown = unknown.contains(name);
      if (isUnknown && holdBackUnknown) {
        continue;
      }
      Message resource = all.get(name);
      if (resource == null) {
        if (isUnknown || (!clientHas.containsKey(name) && !toldAbsent.contains(name))) {
          removed.add(name);
        }
        continue;
      }
      String version = snapshot.resourceVersion(typeUrl, name);
      if (isUnknown || !version.equals(clientHas.get(name))) {
        changed.put(name, VersionedResource.create(resource, version));
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
    if (changed.isEmpty() && removed.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Plan(changed, List.copyOf(removed)));
  }

  /** Records a response that went out, from the response itself (it carries every name and version). */
  synchronized void sent(DeltaDiscoveryResponse response) {
    Map<String, String> versions = new TreeMap<>();
    for (Resource resource : response.getResourcesList()) {
      versions.put(resource.getName(), resource.getVersion());
    }
    outstanding.put(response.getNonce(),
        new Sent(response.getSystemVersionInfo(), Map.copyOf(versions), List.copyOf(response.getRemovedResourcesList())));
  }
}
