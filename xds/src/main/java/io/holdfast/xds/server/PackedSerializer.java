package io.holdfast.xds.server;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.controlplane.server.serializer.ProtoResourcesSerializer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The discovery server's serializer: the cache hands it resources already packed by {@link IndexedSnapshot}
 * (serialized once per resource version, shared by every stream), which pass through untouched; anything else
 * is packed here. Replaces java-control-plane's cached serializer, whose per-resource cache lookup hashes and
 * compares whole messages for every stream.
 */
final class PackedSerializer implements ProtoResourcesSerializer {

  @Override
  @SuppressWarnings("unchecked")
  public Collection<Any> serialize(Collection<? extends Message> resources, Resources.ApiVersion apiVersion) {
    if (resources instanceof List<?> list && list.stream().allMatch(Any.class::isInstance)) {
      return (Collection<Any>) resources;
    }
    List<Any> out = new ArrayList<>(resources.size());
    for (Message m : resources) {
      out.add(serialize(m, apiVersion));
    }
    return out;
  }

  @Override
  public Any serialize(Message resource, Resources.ApiVersion apiVersion) {
    return resource instanceof Any any ? any : Any.pack(resource);
  }
}
