package io.holdfast.server.webhook;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ModelParser;
import io.holdfast.api.ParseResult;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.server.webhook.AdmissionJson.Cause;
import io.holdfast.server.webhook.AdmissionJson.Request;
import io.holdfast.server.webhook.AdmissionJson.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ObjectNode;

/**
 * The webhook's judgement of one request, in the context of the replica's current view: the config its
 * pipeline was last given, with the reviewed object put in (replacing the version it holds) or taken out for a
 * DELETE, run through {@link ConfigCheck}, the path by which the server reaches its statuses. A request is denied
 * exactly when the object's status would say Rejected, with the same findings: errors make the message and the
 * causes, warnings and notes become admission warnings.
 *
 * <p>Each check starts without last-good memory (a new {@link ConfigCheck}): the object is judged on its own
 * merits, as a freshly started server would judge the same view. Deletes are always allowed; like every other
 * change they warn about each object the change would turn from served to rejected (a deleted Upstream's
 * VirtualServices, for instance). Thread-safe: the view is read once per request.
 */
final class AdmissionCheck {

  /** Enough to name what broke; the rest is on the statuses. */
  private static final int MAX_WARNINGS = 10;
  private static final int MAX_CAUSES = 20;

  private final Supplier<Optional<GatewayConfig>> view;
  private final SecretSource secrets;
  private final PipelineSettings settings;
  private final ModelParser parser = new ModelParser();
  /** Statuses of the last view seen, reused while the view is the same object (it changes per rebuild). */
  private final AtomicReference<Baseline> baseline = new AtomicReference<>();

  private record Baseline(GatewayConfig config, Map<ResourceKey, ResourceStatus> statuses) {
  }

  /** The replica has no view to judge against yet (its source has not delivered a config). */
  static final class ViewUnavailable extends Exception {
    ViewUnavailable() {
      super("this replica has not loaded its config yet; cannot judge the object in context");
    }
  }

  /**
   * @param view     the replica's current input config; empty until its source delivered one
   * @param secrets  the Secrets the source can read beyond the view's, for objects naming new ones
   * @param settings the server's pipeline settings, so a verdict here is the server's
   */
  AdmissionCheck(Supplier<Optional<GatewayConfig>> view, SecretSource secrets, PipelineSettings settings) {
    this.view = Objects.requireNonNull(view, "view");
    this.secrets = Objects.requireNonNull(secrets, "secrets");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** With the default settings, the view's Secrets only. */
  AdmissionCheck(Supplier<Optional<GatewayConfig>> view) {
    this(view, SecretSource.NONE, PipelineSettings.DEFAULTS);
  }

  /** A check without last-good memory, as the server's pipeline would run it. */
  private ConfigCheck configCheck() {
    return new ConfigCheck(settings);
  }

  Verdict decide(Request request) throws ViewUnavailable {
    AdmissionJson.GroupVersionKind kind = request.kind();
    if (io.holdfast.api.ConfigLoader.GLOO_GROUPS.contains(kind.group())) {
      return decideApiObject(request, Judgement.ACCEPTED);
    }
    if (PolicyKinds.isPolicy(kind.group() + "/" + kind.version(), kind.kind())) {
      return decideApiObject(request, Judgement.NO_ERRORS);
    }
    if (!kind.group().equals(HoldfastKinds.GROUP) || !kind.version().equals(HoldfastKinds.VERSION)
        || HoldfastKinds.find(kind.kind()).isEmpty()) {
      return Verdict.allow(List.of("holdfast does not check " + kind + " objects: allowed unchecked"
          + " (the webhook configuration should not send them)"));
    }
    if (request.operation().equals("CONNECT")) {
      return Verdict.allow(List.of());
    }
    GatewayConfig current = view.get().orElseThrow(ViewUnavailable::new);
    if (request.operation().equals("DELETE")) {
      ResourceKey key = new ResourceKey(kind.kind(), request.namespace(), request.name());
      GatewayConfig after = current.toBuilder().remove(key).build();
      return Verdict.allow(consequences(current, configCheck().run(after), key));
    }
    ParseResult parsed = parser.parse(withIdentity(request.object().orElseThrow(), request));
    Optional<ResourceKey> named = parsed instanceof ParseResult.Parsed p ? Optional.of(p.resource().key())
        : ((ParseResult.Invalid) parsed).key();
    if (named.isEmpty()) {
      // Without kind and name the document cannot join the view; its problems are all there is to say.
      List<Problem> problems = ((ParseResult.Invalid) parsed).problems();
      return deny(kind.kind() + "/" + request.namespace() + "/" + request.name(),
          problems.stream().map(p -> new Cause(p.field(), p.reason(), p.message())).toList(), List.of());
    }
    ResourceKey key = named.get();
    GatewayConfig.Builder after = current.toBuilder().remove(key);
    if (parsed instanceof ParseResult.Parsed p) {
      after.add(p.resource());
    } else {
      after.addUnparsed(((ParseResult.Invalid) parsed).toUnparsed().orElseThrow());
    }
    return judge(current, after.build(), key, Judgement.ACCEPTED);
  }

  /**
   * What admits an object: its Accepted condition (Holdfast's and Gloo's kinds), or the absence of errors (policy
   * kinds: a policy whose target does not exist yet, or that an older one holds, is not Accepted there, but that
   * is the target's state, not the policy's; kubectl may apply the policy before its Gateway).
   */
  private enum Judgement {
    ACCEPTED, NO_ERRORS
  }

  /**
   * An object the front ends read as an {@link io.holdfast.api.ApiObject}: a Gloo Edge object (issue 27), judged as
   * the Gloo front end judges it in the view (only clusters that opt in send these, docs/GLOO.md: while Gloo itself
   * still runs, its own webhook has the say on them), or one of Holdfast's Gateway API policies
   * ({@link PolicyKinds}), judged by the Gateway API front end.
   */
  private Verdict decideApiObject(Request request, Judgement judgement) throws ViewUnavailable {
    if (request.operation().equals("CONNECT")) {
      return Verdict.allow(List.of());
    }
    if (statusOnly(request)) {
      // A controller's status write, not a config change: Gloo's kinds have no status subresource, so Holdfast's
      // (and Gloo's) status entries are written through the object, and a rejected object must still get one.
      // Gloo's own webhook skips these the same way.
      return Verdict.allow(List.of());
    }
    GatewayConfig current = view.get().orElseThrow(ViewUnavailable::new);
    AdmissionJson.GroupVersionKind kind = request.kind();
    ResourceKey key = new ResourceKey(kind.group(), kind.kind(), request.namespace(), request.name());
    if (request.operation().equals("DELETE")) {
      GatewayConfig after = current.toBuilder().remove(key).build();
      return Verdict.allow(consequences(current, configCheck().run(after), key));
    }
    ObjectNode object = withIdentity(request.object().orElseThrow(), request);
    if (!object.hasNonNull("apiVersion")) {
      object.put("apiVersion", kind.group() + "/" + kind.version());
    }
    if (!object.hasNonNull("kind")) {
      object.put("kind", kind.kind());
    }
    long generation = object.path("metadata").path("generation").asLong(1);
    return judge(current, current.toBuilder().remove(key).add(new io.holdfast.api.ApiObject(key, generation, object))
        .build(), key, judgement);
  }

  /**
   * The verdict on {@code key} in {@code after}, with warnings for what the change breaks elsewhere. {@code after}
   * first gets the Secrets the object names that the source can read ({@link SecretSource}), as the source's next
   * rebuild would give them once the object exists; a Secret that is truly missing stays missing.
   */
  private Verdict judge(GatewayConfig current, GatewayConfig after, ResourceKey key, Judgement judgement) {
    ConfigCheck.Result result = configCheck().run(secrets.withNamedSecrets(after, key));
    Optional<ObjectStatus> judged = result.objectStatus(key);
    if (judged.isEmpty()) {
      // Only when Holdfast itself failed on the way (a front end threw; contained, see ConfigCheck): an object
      // that cannot be judged is not admitted, since the server would fail on it alike.
      List<Cause> causes = result.problems().stream()
          .map(p -> new Cause("", Reasons.INTERNAL_ERROR, "Holdfast could not judge this object: " + p)).toList();
      return deny(key.toString(), causes.isEmpty() ? List.of(new Cause("", Reasons.INTERNAL_ERROR,
          "Holdfast could not judge this object: the check gave it no status")) : causes, List.of());
    }
    ObjectStatus status = judged.get();
    List<String> warnings = new ArrayList<>();
    List<Cause> errors = new ArrayList<>();
    for (Finding finding : status.findings()) {
      if (finding.severity() == Finding.Severity.ERROR) {
        errors.add(new Cause(finding.field(), finding.reason(), finding.message()));
      } else {
        warnings.add(finding.toString());
      }
    }
    warnings.addAll(consequences(current, result, key));
    if (judgement == Judgement.NO_ERRORS ? errors.isEmpty() : status.isAccepted()) {
      return Verdict.allow(limit(warnings));
    }
    if (errors.isEmpty()) {
      // Not produced today (a rejection always has an error finding), but the condition is what decides.
      var accepted = status.condition(io.holdfast.ir.Condition.ACCEPTED);
      errors.add(new Cause("", accepted.reason(), accepted.message()));
    }
    return deny(key.toString(), errors, warnings);
  }

  /**
   * The document with the request's namespace and name filled in where it has none: the API server fills them
   * before admission, but a namespace left to the parser's default would put the object in the wrong place.
   */
  /** Whether an UPDATE leaves everything but the status (and the API server's bookkeeping) as it was. */
  private static boolean statusOnly(Request request) {
    return request.operation().equals("UPDATE") && request.oldObject().isPresent()
        && configOf(request.object().orElseThrow()).equals(configOf(request.oldObject().get()));
  }

  /** The object without its status and without the metadata a write changes by itself; labels and annotations stay. */
  private static ObjectNode configOf(ObjectNode object) {
    ObjectNode copy = object.deepCopy();
    copy.remove("status");
    if (copy.get("metadata") instanceof ObjectNode metadata) {
      metadata.remove(List.of("resourceVersion", "generation", "managedFields", "creationTimestamp", "uid"));
    }
    return copy;
  }

  private static ObjectNode withIdentity(ObjectNode object, Request request) {
    ObjectNode copy = object.deepCopy();
    if (!(copy.get("metadata") instanceof ObjectNode metadata)) {
      return copy; // the parser reports the missing or malformed metadata
    }
    if (!metadata.hasNonNull("namespace") && !request.namespace().isEmpty()) {
      metadata.put("namespace", request.namespace());
    }
    if (!metadata.hasNonNull("name") && !request.name().isEmpty()) {
      metadata.put("name", request.name());
    }
    return copy;
  }

  /** One warning per other object that is served in {@code before} and would be rejected after the change. */
  private List<String> consequences(GatewayConfig before, ConfigCheck.Result after, ResourceKey changed) {
    Map<ResourceKey, ResourceStatus> served = baselineOf(before);
    List<String> warnings = new ArrayList<>();
    after.statuses().forEach((key, status) -> {
      ResourceStatus was = served.get(key);
      if (!key.equals(changed) && status.state() == ResourceStatus.State.REJECTED && was != null && was.isServed()) {
        warnings.add(key + " would be rejected: "
            + status.problems().stream().findFirst().map(Problem::toString).orElse("rejected"));
      }
    });
    return limit(warnings);
  }

  private Map<ResourceKey, ResourceStatus> baselineOf(GatewayConfig config) {
    Baseline known = baseline.get();
    if (known != null && known.config() == config) {
      return known.statuses();
    }
    Baseline fresh = new Baseline(config, configCheck().run(config).statuses());
    baseline.set(fresh);
    return fresh.statuses();
  }

  private static Verdict deny(String object, List<Cause> errors, List<String> warnings) {
    List<Cause> causes = errors.size() > MAX_CAUSES ? errors.subList(0, MAX_CAUSES) : errors;
    String message = object + " is rejected: " + causes.stream()
        .map(c -> new Problem(c.field(), c.reason(), c.message()).toString())
        .collect(Collectors.joining("; "))
        + (errors.size() > causes.size() ? "; and " + (errors.size() - causes.size()) + " more" : "");
    return Verdict.deny(message, causes, limit(warnings));
  }

  private static List<String> limit(List<String> warnings) {
    if (warnings.size() <= MAX_WARNINGS) {
      return warnings;
    }
    List<String> kept = new ArrayList<>(warnings.subList(0, MAX_WARNINGS - 1));
    kept.add("and " + (warnings.size() - kept.size()) + " more warnings");
    return kept;
  }
}
