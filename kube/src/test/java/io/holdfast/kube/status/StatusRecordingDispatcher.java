package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The CRUD mock's dispatcher, plus three things the status tests need: every write to a {@code /status}
 * subresource is recorded with its arrival time and the writer's user agent; a stale resourceVersion on such a
 * write gets 409, as the real API gives (the mock alone accepts it); and status writes can be made to fail.
 */
final class StatusRecordingDispatcher extends KubernetesCrudDispatcher {

  /** One status write as the API received it; {@code code} is what it answered. */
  record StatusWrite(long nanos, String userAgent, String method, String path, String resourceVersion, int code,
      String body) {}

  final List<StatusWrite> writes = new CopyOnWriteArrayList<>();
  private volatile int failWith;

  /** Answer every status write with {@code code} (e.g. 500) until {@link #stopFailing()}. */
  void failStatusWrites(int code) {
    failWith = code;
  }

  void stopFailing() {
    failWith = 0;
  }

  @Override
  public synchronized MockResponse handleUpdate(RecordedRequest request) {
    if (!isStatus(request.getPath())) {
      return super.handleUpdate(request);
    }
    String body = bodyOf(request);
    String sentVersion = resourceVersion(body);
    int fail = failWith;
    MockResponse response;
    if (fail != 0) {
      response = failure(fail, "InternalError", "injected failure");
    } else if (sentVersion != null && !sentVersion.equals(storedVersion(request.getPath()))) {
      response = failure(409, "Conflict", "the object has been modified; please apply your changes to the latest version");
    } else {
      response = super.handleUpdate(request);
    }
    writes.add(new StatusWrite(System.nanoTime(), request.getHeader("User-Agent"), request.getMethod(),
        request.getPath(), sentVersion, response.code(), body));
    return response;
  }

  @Override
  public synchronized MockResponse handlePatch(RecordedRequest request) {
    if (isStatus(request.getPath())) {
      writes.add(new StatusWrite(System.nanoTime(), request.getHeader("User-Agent"), request.getMethod(),
          request.getPath(), null, 0, bodyOf(request)));
    }
    return super.handlePatch(request);
  }

  /** Writes that reached the API from the given user agent. */
  List<StatusWrite> from(String userAgent) {
    return writes.stream().filter(w -> userAgent.equals(w.userAgent())).toList();
  }

  /** The body, without consuming it ({@code getUtf8Body()} drains the buffer the CRUD handler reads next). */
  private static String bodyOf(RecordedRequest request) {
    return request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
  }

  private static boolean isStatus(String path) {
    String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    return p.startsWith("/apis/gateway.holdfast.io/") && p.endsWith("/status");
  }

  private String storedVersion(String statusPath) {
    String p = statusPath.contains("?") ? statusPath.substring(0, statusPath.indexOf('?')) : statusPath;
    MockResponse current = handleGet(p.substring(0, p.length() - "/status".length()));
    if (current.code() != 200) {
      return null;
    }
    return resourceVersion(new String(current.getBody().getBytes(), StandardCharsets.UTF_8));
  }

  private static String resourceVersion(String json) {
    GenericKubernetesResource r = Serialization.unmarshal(json, GenericKubernetesResource.class);
    return r.getMetadata() == null ? null : r.getMetadata().getResourceVersion();
  }

  private static MockResponse failure(int code, String reason, String message) {
    return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"status\":\"Failure\",\"reason\":\"" + reason + "\",\"code\":" + code + ",\"message\":\"" + message + "\"}");
  }
}
