package io.holdfast.it.bench.xds;

import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.Map;
import java.util.Set;

/** A control plane under load: serves ADS on a loopback port and takes new snapshots. */
interface XdsTarget extends AutoCloseable {

  String label();

  int port();

  /** The version_info each of {@code types} will carry once {@code snapshot} is served. */
  Map<String, String> versions(XdsSnapshot snapshot, Set<String> types);

  /** Makes {@code snapshot} the served one, pushing to every open stream that needs it. */
  void publish(XdsSnapshot snapshot);

  @Override
  void close();
}
