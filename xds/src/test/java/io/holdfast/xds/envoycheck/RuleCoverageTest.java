package io.holdfast.xds.envoycheck;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** What the checker does not enforce, and proof that Envoy's protos (those the registry reaches) need none of it. */
class RuleCoverageTest {

  @Test
  void listsTheRuleKindsItDoesNotEnforce() {
    // string.email: PGV's C++ (Envoy's) cannot generate it; map.no_sparse: Java maps cannot be sparse;
    // timestamp *_now and within: depend on the wall clock (and PGV's C++ leaves timestamps unimplemented).
    assertThat(RuleKinds.unenforced()).containsExactly("map.no_sparse", "string.email", "timestamp.gt_now",
        "timestamp.lt_now", "timestamp.within");
    assertThat(RuleKinds.all()).as("enforced kinds are real validate.proto rules").containsAll(RuleKinds.enforced());
  }

  @Test
  void envoyProtosInTheRegistryUseOnlyEnforcedRuleKinds() {
    SortedMap<String, String> used = new TreeMap<>();
    for (Descriptor type : EnvoyTypes.BY_NAME.values()) {
      if (PgvOptions.messageDisabled(type.getOptions())) {
        used.putIfAbsent("message_options.disabled", type.getFullName());
      }
      type.getRealOneofs().stream().filter(o -> PgvOptions.oneofRequired(o.getOptions()))
          .forEach(o -> used.putIfAbsent("oneof.required", o.getFullName()));
      type.getFields().forEach(f -> collect(f.getFullName(), PgvOptions.fieldRules(f.getOptions()), used));
    }
    TreeSet<String> skipped = new TreeSet<>(used.keySet());
    skipped.retainAll(RuleKinds.unenforced());
    assertThat(skipped).as("rule kinds used by Envoy protos that the checker does not enforce").isEmpty();
    assertThat(used).as("sanity: the scan sees the annotations").containsKeys("string.min_len",
        "string.well_known_regex", "oneof.required", "duration.gt", "enum.defined_only", "repeated.items",
        "map.keys", "uint32.lte", "message.required");
  }

  @Test
  void registryOpensTheTypedConfigsHoldfastPacks() {
    assertThat(EnvoyTypes.BY_NAME).containsKeys(HttpConnectionManager.getDescriptor().getFullName(),
        Router.getDescriptor().getFullName(), HttpProtocolOptions.getDescriptor().getFullName(),
        UpstreamTlsContext.getDescriptor().getFullName(), RoundRobin.getDescriptor().getFullName(),
        "envoy.config.cluster.v3.Cluster", "envoy.extensions.transport_sockets.tls.v3.Secret");
  }

  private static void collect(String where, FieldRules rules, Map<String, String> used) {
    rules.getAllFields().forEach((typeField, typeRules) -> ((Message) typeRules).getAllFields().forEach((rule, v) -> {
      boolean asksForSomething = rule.getJavaType() != FieldDescriptor.JavaType.BOOLEAN || Boolean.TRUE.equals(v);
      if (asksForSomething) {
        used.putIfAbsent(typeField.getName() + "." + rule.getName(), where);
      }
      if (v instanceof FieldRules nested) {
        collect(where, nested, used);
      }
    }));
  }
}
