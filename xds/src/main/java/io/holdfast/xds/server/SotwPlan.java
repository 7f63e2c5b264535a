package io.holdfast.xds.server;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * What a state-of-the-world response for one request would contain, and (once asked for) its encoding without
 * the nonce, which every stream sent this answer shares. Immutable apart from that memo.
 */
final class SotwPlan {

  private final String typeUrl;
  private final String version;
  private final List<Any> resources;
  private final List<String> names;
  private final String key;
  private byte[] body;

  /**
   * @param typeUrl   the resource type
   * @param version   the snapshot version answered from (the response's version_info)
   * @param resources the resources to send, packed once per snapshot and shared by every stream, sorted by name
   * @param names     their names, same order
   * @param key       hash of the question (wildcard or the requested names) and the answer (each name and its
   *                  content hash): equal keys mean the proxy would get nothing new
   */
  SotwPlan(String typeUrl, String version, List<Any> resources, List<String> names, String key) {
    this.typeUrl = typeUrl;
    this.version = version;
    this.resources = List.copyOf(resources);
    this.names = List.copyOf(names);
    this.key = key;
  }

  /**
   * LDS/CDS with no names, or any type asked for {@code *}: every resource of the type (this is how a
   * deletion reaches a SotW proxy). Otherwise the requested names that exist; missing names are simply
   * absent, never a reason to hold the answer back.
   */
  static SotwPlan of(IndexedSnapshot snapshot, SotwQuestion question) {
    String typeUrl = question.typeUrl();
    List<String> requestedNames = question.names();
    boolean wildcard = requestedNames.contains("*")
        || (requestedNames.isEmpty() && TypeUrls.wildcardWhenUnnamed(typeUrl));
    SortedMap<String, Message> all = snapshot.resources(typeUrl);
    TreeSet<String> asked = new TreeSet<>(requestedNames);
    List<Any> resources = new ArrayList<>();
    List<String> names = new ArrayList<>();
    StringBuilder fingerprint = new StringBuilder(wildcard ? "*" : String.join("\u0000", asked)).append('\u0001');
    Iterable<String> chosen = wildcard ? all.keySet() : asked;
    for (String name : chosen) {
      IndexedSnapshot.Packed packed = snapshot.packed(typeUrl, name);
      if (packed != null) {
        resources.add(packed.any());
        names.add(name);
        fingerprint.append(name).append('\u0000').append(packed.version()).append('\u0001');
      }
    }
    return new SotwPlan(typeUrl, snapshot.version(), resources, names, Hashes.of(fingerprint.toString()));
  }

  String typeUrl() {
    return typeUrl;
  }

  String version() {
    return version;
  }

  List<Any> resources() {
    return resources;
  }

  List<String> names() {
    return names;
  }

  String key() {
    return key;
  }

  /**
   * The response's version_info, resources and type_url, encoded on first use and then shared: a memoised plan
   * is encoded once per snapshot and question however many streams are sent it.
   */
  synchronized byte[] body() {
    if (body == null) {
      body = Encoded.sotwBody(version, resources, typeUrl);
    }
    return body;
  }
}
