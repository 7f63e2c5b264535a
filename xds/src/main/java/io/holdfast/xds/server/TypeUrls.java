package io.holdfast.xds.server;

import io.envoyproxy.controlplane.cache.Resources;
import java.util.Comparator;
import java.util.List;

/** The resource types this server can send, and the facts about them the protocol depends on. */
final class TypeUrls {

  static final String LISTENER = Resources.V3.LISTENER_TYPE_URL;
  static final String ROUTE = Resources.V3.ROUTE_TYPE_URL;
  static final String CLUSTER = Resources.V3.CLUSTER_TYPE_URL;
  static final String ENDPOINT = Resources.V3.ENDPOINT_TYPE_URL;
  static final String SECRET = Resources.V3.SECRET_TYPE_URL;

  /** Push order on a snapshot change: clusters before their endpoints, listeners before their routes. */
  private static final List<String> PUSH_ORDER = List.of(CLUSTER, ENDPOINT, LISTENER, ROUTE, SECRET);

  /** Every type this server sends, in push order. */
  static final List<String> SENT = PUSH_ORDER;

  /** Known types in push order, then any others alphabetically (distinct types never compare equal). */
  static final Comparator<String> IN_PUSH_ORDER =
      Comparator.comparingInt(TypeUrls::rank).thenComparing(Comparator.naturalOrder());

  private TypeUrls() {
  }

  /** The types this server sends; a request for another type is logged once and never answered. */
  static boolean supported(String typeUrl) {
    return PUSH_ORDER.contains(typeUrl);
  }

  /** LDS and CDS treat an empty SotW name list as "everything" (legacy wildcard); other types do not. */
  static boolean wildcardWhenUnnamed(String typeUrl) {
    return LISTENER.equals(typeUrl) || CLUSTER.equals(typeUrl);
  }

  /** The message name after the last dot, e.g. {@code Listener}; used as a metric tag. */
  static String shortName(String typeUrl) {
    return typeUrl.substring(typeUrl.lastIndexOf('.') + 1);
  }

  private static int rank(String typeUrl) {
    int index = PUSH_ORDER.indexOf(typeUrl);
    return index < 0 ? PUSH_ORDER.size() : index;
  }
}
