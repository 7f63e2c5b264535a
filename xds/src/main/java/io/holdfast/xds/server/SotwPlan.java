package io.holdfast.xds.server;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * What a state-of-the-world response for one request would contain.
 *
 * @param resources the resources to send, packed once per snapshot and shared by every stream, sorted by name
 * @param names     their names, same order
 * @param key       hash of the question (wildcard or the requested names) and the answer (each name and its
 *                  content hash): equal keys mean the proxy would get nothing new
 */
record SotwPlan(List<Any> resources, List<String> names, String key) {

  SotwPlan {
    resources = List.copyOf(resources);
    names = List.copyOf(names);
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
    return new SotwPlan(resources, names, Hashes.of(fingerprint.toString()));
  }
}
