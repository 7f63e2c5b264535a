package io.holdfast.testkit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * fabric8's CRUD dispatcher plus the check a real API server makes and the mock lacks: a PUT to a
 * {@code /status} subresource that carries a resourceVersion other than the stored one is answered 409 Conflict
 * (the mock copies the stored object, sets the new status and so never sees the stale version). A status PUT
 * without a resourceVersion stays an unconditional update, as on a real server.
 *
 * <p>Lists and watches also honour field selectors on fields the mock itself ignores, such as a Secret's
 * {@code type} ({@link FieldSelectors}).
 *
 * <p>Every write (create, update, patch, delete) runs under this dispatcher's lock, so the check and the update
 * it guards are atomic with respect to any other write.
 */
class KubeApiDispatcher extends KubernetesCrudDispatcher {

  /**
   * Watches close off the server's event loop ({@link WatchClosesOffEventLoop}): a cut watch stalled the API. Field
   * selectors on fields the mock does not know are applied to the events ({@link FieldSelectors}).
   */
  @Override
  public MockResponse handleWatch(String path) {
    FieldSelectors selector = FieldSelectors.of(path);
    MockResponse response = selector.filterWatch(super.handleWatch(selector.pathForMock()));
    return response.getWebSocketListener() == null ? response
        : response.withWebSocketUpgrade(new WatchClosesOffEventLoop(response.getWebSocketListener()));
  }

  /** Lists honour field selectors on fields the mock does not know, as a real API server does. */
  @Override
  public MockResponse handleGet(String path) {
    if (isWatch(path)) {
      return handleWatch(path); // as the base does, but through the override above with the full selector
    }
    FieldSelectors selector = FieldSelectors.of(path);
    return selector.filterList(super.handleGet(selector.pathForMock()));
  }

  @Override
  public synchronized MockResponse handleCreate(RecordedRequest request) {
    return super.handleCreate(withSecretTypeDefaulted(request));
  }

  @Override
  public synchronized MockResponse handleUpdate(RecordedRequest request) {
    if (isStatusPath(request.getPath())) {
      String sent = resourceVersionOf(bodyOf(request));
      if (sent != null && !sent.isEmpty()) {
        String stored = storedResourceVersion(request.getPath());
        if (stored != null && !stored.equals(sent)) {
          return failure(409, "Conflict", "Operation cannot be fulfilled: the object has been modified; please apply"
              + " your changes to the latest version and try again (sent resourceVersion " + sent + ", stored "
              + stored + ")");
        }
      }
    }
    return super.handleUpdate(withSecretTypeDefaulted(request));
  }

  private static final tools.jackson.databind.json.JsonMapper SECRET_JSON =
      tools.jackson.databind.json.JsonMapper.builder().build();
  private static final java.util.regex.Pattern SECRETS = java.util.regex.Pattern.compile(
      "/api/v1/namespaces/[^/]+/secrets(/[^/]+)?");

  /**
   * A Secret written without a {@code type} as a real API server stores it: of type {@code Opaque} (its defaulting);
   * the mock would keep it without one, and a {@code type=Opaque} field selector would then miss it.
   */
  static RecordedRequest withSecretTypeDefaulted(RecordedRequest request) {
    if (!SECRETS.matcher(withoutQuery(request.getPath())).matches()) {
      return request;
    }
    try {
      var tree = SECRET_JSON.readTree(bodyOf(request));
      if (!(tree instanceof tools.jackson.databind.node.ObjectNode secret) || secret.hasNonNull("type")) {
        return request;
      }
      secret.put("type", "Opaque");
      return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), request.getHeaders(),
          new io.fabric8.mockwebserver.http.Buffer(SECRET_JSON.writeValueAsBytes(secret)));
    } catch (RuntimeException e) {
      return request; // not JSON: the CRUD handler will answer it
    }
  }

  @Override
  public synchronized MockResponse handlePatch(RecordedRequest request) {
    return super.handlePatch(request);
  }

  @Override
  public synchronized MockResponse handleDelete(String path) {
    return super.handleDelete(path);
  }

  /** Whether {@code path}'s query asks for a watch ({@code watch=true} or {@code watch=1}). */
  static boolean isWatch(String path) {
    int q = path.indexOf('?');
    return q >= 0 && java.util.Arrays.stream(path.substring(q + 1).split("&"))
        .anyMatch(p -> p.equals("watch=true") || p.equals("watch=1"));
  }

  /** Whether {@code path} (query allowed) names a {@code /status} subresource. */
  static boolean isStatusPath(String path) {
    return withoutQuery(path).endsWith("/status");
  }

  private static final java.util.regex.Pattern STATUS_IN_OBJECT = java.util.regex.Pattern.compile(
      "/apis/(gateway\\.solo\\.io|gloo\\.solo\\.io|enterprise\\.gloo\\.solo\\.io)/[^/]+(/namespaces/[^/]+)?/[^/]+/[^/]+");

  /**
   * Whether {@code path} (query allowed) names one object of a Gloo Edge kind: their definitions have no
   * {@code /status} subresource, so a status is written by a PUT of the whole object.
   */
  static boolean isStatusInObjectPath(String path) {
    return STATUS_IN_OBJECT.matcher(withoutQuery(path)).matches();
  }

  static String withoutQuery(String path) {
    int q = path.indexOf('?');
    return q < 0 ? path : path.substring(0, q);
  }

  /** The body as text, without consuming it ({@code getUtf8Body()} drains the buffer the CRUD handler reads next). */
  static String bodyOf(RecordedRequest request) {
    return request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
  }

  /** {@code metadata.resourceVersion} of a JSON object, or null (also for a body that is not an object). */
  static String resourceVersionOf(String json) {
    if (json == null || json.isBlank()) {
      return null;
    }
    try {
      GenericKubernetesResource r = Serialization.unmarshal(json, GenericKubernetesResource.class);
      return r.getMetadata() == null ? null : r.getMetadata().getResourceVersion();
    } catch (RuntimeException e) {
      return null; // not an object: the CRUD handler will answer it
    }
  }

  private String storedResourceVersion(String statusPath) {
    String p = withoutQuery(statusPath);
    String objectPath = p.substring(0, p.length() - "/status".length());
    Map.Entry<AttributeSet, String> stored = findResource(getKey(objectPath));
    return stored == null ? null : resourceVersionOf(stored.getValue());
  }

  static MockResponse failure(int code, String reason, String message) {
    return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"reason\":\"" + reason + "\",\"code\":" + code + ",\"message\":\""
        + message.replace("\"", "'") + "\"}");
  }
}
