package io.holdfast.xds.envoycheck;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translation;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Stands in for Envoy's own config validation in tests: checks Envoy resources against the protoc-gen-validate
 * ({@code validate.rules}) constraints annotated in Envoy's protos, read from the descriptors at run time, so any
 * Envoy message can be checked and a rule added upstream is picked up with the jar. Any payloads whose type
 * {@link EnvoyTypes} knows are opened and checked too. Envoy NACKs a resource that breaks one of these rules, so
 * every resource Holdfast emits must pass {@link #assertValid}.
 *
 * <p>Rule semantics follow PGV's generated C++ (what Envoy runs); see {@link RuleKinds} for the rule kinds not
 * evaluated, which are reported rather than passed. Thread-safe: each call walks with its own state.
 */
public final class EnvoyConstraints {

  private static final String TYPE_URL_PREFIX = "type.googleapis.com/";

  private EnvoyConstraints() {
  }

  /** The violations in {@code resource}, with paths from its top, e.g. {@code virtual_hosts[0].name}. */
  public static List<Violation> check(Message resource) {
    return inspect("", resource).violations();
  }

  /** Violations and unenforced rule kinds in {@code resource}; paths start with {@code rootPath}. */
  public static Report inspect(String rootPath, Message resource) {
    return inspect(EnvoyTypes.BY_NAME, rootPath, resource);
  }

  /**
   * Every resource of a snapshot, by type URL then name (as {@link XdsSnapshot#resources()}); paths start with the
   * resource, e.g. {@code cluster[demo/echo].connect_timeout}.
   */
  public static Report inspect(Map<String, ? extends Map<String, ? extends Message>> resources) {
    Findings findings = new Findings();
    Walker walker = new Walker(EnvoyTypes.BY_NAME, findings);
    resources.forEach((typeUrl, byName) -> byName.forEach((name, resource) -> {
      Descriptor type = resource.getDescriptorForType();
      String root = snakeCase(type.getName()) + "[" + name + "]";
      if (!typeUrl.equals(TYPE_URL_PREFIX + type.getFullName())) {
        findings.violation(root, "checker.type_url_matches " + typeUrl, type.getFullName());
      }
      walker.message(root, resource);
    }));
    return findings.report();
  }

  /** Fails, listing every violation and unenforced rule kind, unless all resources pass. */
  public static void assertValid(Map<String, ? extends Map<String, ? extends Message>> resources) {
    Report report = inspect(resources);
    if (!report.clean()) {
      throw new AssertionError("Envoy would reject (validate.rules): " + report);
    }
  }

  public static void assertValid(XdsSnapshot snapshot) {
    assertValid(snapshot.resources());
  }

  /** Asserts {@code translation}'s snapshot is valid and returns it, so a test can check as it translates. */
  public static Translation checked(Translation translation) {
    assertValid(translation.snapshot());
    return translation;
  }

  static Report inspect(Map<String, Descriptor> types, String rootPath, Message resource) {
    Findings findings = new Findings();
    new Walker(types, findings).message(rootPath, resource);
    return findings.report();
  }

  static String snakeCase(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }
}
