package io.holdfast.api;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which VirtualServices a Gateway serves. Written as {@code virtualServices: [{name, namespace?}]} (any
 * namespace), {@code selector: {matchLabels}} (the gateway's namespace), or neither: every VirtualService in
 * the gateway's namespace, which is what users expect from a gateway with no selection.
 */
public sealed interface VirtualServiceSelection {

  /** True if {@code vs} is served by a gateway in {@code gatewayNamespace} with this selection. */
  boolean selects(String gatewayNamespace, VirtualService vs);

  record Named(List<ObjectRef> refs) implements VirtualServiceSelection {
    public Named {
      refs = List.copyOf(refs);
    }

    @Override
    public boolean selects(String gatewayNamespace, VirtualService vs) {
      return refs.stream().anyMatch(ref ->
          ref.resolve(ResourceKey.VIRTUAL_SERVICE, gatewayNamespace).equals(vs.key()));
    }
  }

  /** Kubernetes semantics: every label must be present with that value; empty matches all. */
  record LabelSelector(Map<String, String> matchLabels) implements VirtualServiceSelection {
    public LabelSelector {
      matchLabels = Collections.unmodifiableMap(new TreeMap<>(matchLabels));
    }

    @Override
    public boolean selects(String gatewayNamespace, VirtualService vs) {
      return vs.metadata().namespace().equals(gatewayNamespace)
          && vs.metadata().labels().entrySet().containsAll(matchLabels.entrySet());
    }
  }

  record AllInNamespace() implements VirtualServiceSelection {
    @Override
    public boolean selects(String gatewayNamespace, VirtualService vs) {
      return vs.metadata().namespace().equals(gatewayNamespace);
    }
  }
}
