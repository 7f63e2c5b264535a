package io.holdfast.it.outage;

import io.holdfast.testkit.ApiWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One write the emulated API received, as MockKubeApiMain records it. Times are epoch milliseconds; the start is
 * when the API began handling it (it had the whole request), the end when it answered.
 *
 * @param resourceVersion the {@code metadata.resourceVersion} the write carried ("" if none)
 * @param leaseHolder     for a Lease write, the {@code spec.holderIdentity} it set ("" = released); empty otherwise
 */
record WriteRecord(String method, String path, String userAgent, long startMillis, long endMillis, int code,
    String resourceVersion, Optional<String> leaseHolder) {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  static final String LEASE_PATH_PART = "/apis/coordination.k8s.io/v1/";

  WriteRecord {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(userAgent, "userAgent");
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    Objects.requireNonNull(leaseHolder, "leaseHolder");
    if (endMillis < startMillis) {
      throw new IllegalArgumentException("ends before it starts: " + startMillis + ".." + endMillis);
    }
  }

  /** A write with no body fields recorded. */
  WriteRecord(String method, String path, String userAgent, long startMillis, long endMillis, int code) {
    this(method, path, userAgent, startMillis, endMillis, code, "", Optional.empty());
  }

  static WriteRecord parse(String line) {
    JsonNode n = JSON.readTree(line);
    return new WriteRecord(n.get("method").asString(), n.get("path").asString(), n.get("userAgent").asString(),
        n.get("startMillis").asLong(), n.get("endMillis").asLong(), n.get("code").asInt(),
        n.path("resourceVersion").asString(""),
        n.has("holder") ? Optional.of(n.get("holder").asString("")) : Optional.empty());
  }

  static List<WriteRecord> parseAll(List<String> lines) {
    List<WriteRecord> out = new ArrayList<>();
    for (String l : lines) {
      if (!l.isBlank()) {
        out.add(parse(l));
      }
    }
    return out;
  }

  /** The Holdfast identity that sent it ({@code holdfast/<identity>} User-Agent), or empty for anyone else. */
  String writer() {
    return userAgent.startsWith("holdfast/") ? userAgent.substring("holdfast/".length()) : "";
  }

  /**
   * A status write, whatever the kind: to a {@code /status} subresource (Holdfast's kinds, the Gateway API's) or a
   * PUT of a whole Gloo Edge object (no such subresource: the status is written through the object).
   */
  boolean isStatusWrite() {
    return ApiWrite.isStatusWrite(method, path);
  }

  boolean isLeaseWrite() {
    return path.startsWith(LEASE_PATH_PART) && path.contains("/leases");
  }

  boolean accepted() {
    return code >= 200 && code < 300;
  }

  /** Who holds the Lease once this (accepted Lease) write is applied: its body's holder, else its sender. */
  String holderSet() {
    return leaseHolder.orElseGet(this::writer);
  }
}
