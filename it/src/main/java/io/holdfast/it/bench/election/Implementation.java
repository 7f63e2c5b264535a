package io.holdfast.it.bench.election;

import io.holdfast.testkit.MockKubeApi;

/** The two electors compared; each gets its own namespace on the shared emulated API. */
enum Implementation {
  HOLDFAST("Holdfast", "holdfast-bench", "hf"),
  FABRIC8("fabric8 8.0.0", "fabric8-bench", "f8");

  final String label;
  final String namespace;
  final String prefix;

  Implementation(String label, String namespace, String prefix) {
    this.label = label;
    this.namespace = namespace;
    this.prefix = prefix;
  }

  Contender start(MockKubeApi api, String lease, String replica, Timings timings) {
    String identity = prefix + "-" + lease + "-" + replica;
    return switch (this) {
      case HOLDFAST -> new HoldfastContender(api, namespace, lease, identity, timings);
      case FABRIC8 -> new Fabric8Contender(api, namespace, lease, identity, timings);
    };
  }
}
