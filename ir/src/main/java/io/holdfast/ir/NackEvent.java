package io.holdfast.ir;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A proxy rejected (NACKed) a response.
 *
 * @param nodeId          the proxy's node id; empty if it never sent one on that stream
 * @param typeUrl         the resource type URL of the rejected response
 * @param rejectedVersion the snapshot version the rejected response carried; empty when the rejected nonce is not
 *                        one this server sent on that stream (e.g. a nonce from an earlier connection)
 * @param resourceNames   names of the resources in the rejected response (sorted), or the names the request
 *                        asked for when the rejected response is unknown
 * @param errorDetail     the proxy's error message ({@code error_detail.message})
 * @param at              when the NACK was received, from the server's clock
 */
public record NackEvent(
    String nodeId, String typeUrl, String rejectedVersion, List<String> resourceNames, String errorDetail,
    Instant at) {

  public NackEvent {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(typeUrl, "typeUrl");
    Objects.requireNonNull(rejectedVersion, "rejectedVersion");
    resourceNames = List.copyOf(resourceNames);
    Objects.requireNonNull(errorDetail, "errorDetail");
    Objects.requireNonNull(at, "at");
  }
}
