package io.holdfast.xds.server;

import com.google.protobuf.Any;
import com.google.protobuf.CodedOutputStream;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * One xDS response already in wire form, as parts written back to back. A protobuf message's encoding is the
 * concatenation of its fields' encodings in any order, so the parts that are the same for many streams (a SotW
 * answer without its nonce, a delta {@code Resource} entry) are encoded once and shared by reference; only the
 * nonce (and for delta, the removed names and versions) is encoded per stream. Parts are never modified.
 */
final class Encoded {

  /** gRPC marshaller for responses: writes the parts; never asked to parse on the server. */
  static final MethodDescriptor.Marshaller<Encoded> MARSHALLER = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(Encoded value) {
      return new PartsStream(value.parts, value.length);
    }

    @Override
    public Encoded parse(InputStream stream) {
      try {
        return new Encoded(new byte[][] {stream.readAllBytes()});
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  private static final int SOTW_NONCE_FIELD = DiscoveryResponse.NONCE_FIELD_NUMBER;
  private static final int DELTA_RESOURCES_FIELD = DeltaDiscoveryResponse.RESOURCES_FIELD_NUMBER;

  private final byte[][] parts;
  private final int length;

  private Encoded(byte[][] parts) {
    this.parts = parts;
    int total = 0;
    for (byte[] part : parts) {
      total += part.length;
    }
    this.length = total;
  }

  /** A SotW response: the plan's shared body (version, resources, type URL) and this stream's nonce. */
  static Encoded sotw(SotwPlan plan, String nonce) {
    return new Encoded(new byte[][] {plan.body(), stringField(SOTW_NONCE_FIELD, nonce)});
  }

  /**
   * The part of a SotW response every stream asked the same question of the same snapshot gets: version_info,
   * resources and type_url, as the old builder path set them.
   */
  static byte[] sotwBody(String version, List<Any> resources, String typeUrl) {
    return DiscoveryResponse.newBuilder().setVersionInfo(version).addAllResources(resources).setTypeUrl(typeUrl)
        .build().toByteArray();
  }

  /**
   * A delta response: each resource's shared entry (see {@link #deltaEntry}), then this stream's own fields.
   */
  static Encoded delta(String typeUrl, String version, String nonce, List<byte[]> entries, List<String> removed) {
    byte[][] parts = new byte[entries.size() + 1][];
    for (int i = 0; i < entries.size(); i++) {
      parts[i] = entries.get(i);
    }
    parts[entries.size()] = DeltaDiscoveryResponse.newBuilder().setSystemVersionInfo(version).setTypeUrl(typeUrl)
        .addAllRemovedResources(removed).setNonce(nonce).build().toByteArray();
    return new Encoded(parts);
  }

  /** One {@code resources} field of a DeltaDiscoveryResponse: {@code Resource{name, version, resource}}. */
  static byte[] deltaEntry(String name, String version, Any resource) {
    Resource entry = Resource.newBuilder().setName(name).setVersion(version).setResource(resource).build();
    byte[] out = new byte[CodedOutputStream.computeMessageSize(DELTA_RESOURCES_FIELD, entry)];
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    try {
      coded.writeMessage(DELTA_RESOURCES_FIELD, entry);
      coded.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("encoding into an array cannot fail", e);
    }
    return out;
  }

  private static byte[] stringField(int field, String value) {
    if (value.isEmpty()) {
      return new byte[0];
    }
    byte[] out = new byte[CodedOutputStream.computeStringSize(field, value)];
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    try {
      coded.writeString(field, value);
      coded.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("encoding into an array cannot fail", e);
    }
    return out;
  }

  /** The parts, shared: callers must not modify them. */
  List<byte[]> parts() {
    return List.of(parts);
  }

  int length() {
    return length;
  }

  /** All parts in one new array (tests, and any transport that reads instead of draining). */
  byte[] toByteArray() {
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    return out;
  }

  /**
   * The parts as a stream gRPC can size ({@link KnownLength}) and drain into its own buffer in one copy
   * ({@link Drainable}) instead of serialising a message per stream.
   */
  private static final class PartsStream extends InputStream implements KnownLength, Drainable {

    private final byte[][] parts;
    private int part;
    private int offset;
    private int remaining;

    PartsStream(byte[][] parts, int length) {
      this.parts = parts;
      this.remaining = length;
    }

    @Override
    public int drainTo(OutputStream target) throws IOException {
      int written = remaining;
      for (; part < parts.length; part++, offset = 0) {
        target.write(parts[part], offset, parts[part].length - offset);
      }
      remaining = 0;
      return written;
    }

    @Override
    public int available() {
      return remaining;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] target, int at, int max) {
      if (remaining == 0) {
        return max == 0 ? 0 : -1;
      }
      int copied = 0;
      while (copied < max && part < parts.length) {
        int n = Math.min(max - copied, parts[part].length - offset);
        System.arraycopy(parts[part], offset, target, at + copied, n);
        copied += n;
        offset += n;
        if (offset == parts[part].length) {
          part++;
          offset = 0;
        }
      }
      remaining -= copied;
      return copied;
    }
  }
}
