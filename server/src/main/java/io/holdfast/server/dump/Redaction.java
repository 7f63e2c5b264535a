package io.holdfast.server.dump;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Copies an Envoy resource with every field its API marks sensitive ({@code (udpa.annotations.sensitive) = true}:
 * private keys, passwords, generic secrets, session ticket keys) replaced as Envoy's own config dump does: every
 * string and bytes value inside such a field becomes {@value #REDACTED}. Packed configs ({@code Any}) are opened
 * and redacted too, so a private key inlined in a cluster's transport socket is caught as one in a Secret is.
 *
 * <p>It also records the message types met inside {@code Any}, which the JSON printer needs ({@link #types()}).
 * A packed type this JVM has no class for cannot be looked into: it is replaced by a {@code Struct} naming the
 * type and its size, never printed as it came. One instance per rendering; not thread-safe.
 */
final class Redaction {
  static final String REDACTED = "[redacted]";
  /** Message nesting followed: Envoy's own resources nest a few dozen deep; deeper is hostile input. */
  static final int MAX_DEPTH = 100;
  /** What a packed config of an unknown type is replaced by: a Struct saying so. */
  static final String UNKNOWN_TYPE_FIELD = "holdfastUnknownType";

  private static final Map<String, Optional<Descriptor>> DESCRIPTORS = new ConcurrentHashMap<>();
  /** Where the generated classes of each proto package root live (java_package conventions of the APIs). */
  private static final Map<String, String> JAVA_PREFIXES = Map.of(
      "envoy.", "io.envoyproxy.",
      "google.protobuf.", "com.",
      "google.rpc.", "com.",
      "xds.", "com.github.",
      "udpa.", "com.github.udpa.");

  private final Set<Descriptor> types = new LinkedHashSet<>();

  /** The message types met inside {@code Any} so far, for {@code JsonFormat.TypeRegistry}. */
  Set<Descriptor> types() {
    return types;
  }

  Message redact(Message message) {
    return redact(message, false, 0);
  }

  private Message redact(Message message, boolean sensitive, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("message nested deeper than " + MAX_DEPTH + " levels");
    }
    if (message.getDescriptorForType().getFullName().equals(Any.getDescriptor().getFullName())) {
      // Inside a packed config read generically, an Any is a DynamicMessage: read it back as one.
      return redactAny(message instanceof Any any ? any : asAny(message), sensitive, depth);
    }
    Message.Builder copy = message.toBuilder();
    for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
      FieldDescriptor field = e.getKey();
      boolean inner = sensitive || isSensitive(field);
      if (field.isRepeated()) {
        List<Object> values = new ArrayList<>();
        for (Object v : (List<?>) e.getValue()) {
          values.add(value(field, v, inner, depth));
        }
        copy.setField(field, values);
      } else {
        copy.setField(field, value(field, e.getValue(), inner, depth));
      }
    }
    return copy.build();
  }

  private Object value(FieldDescriptor field, Object value, boolean sensitive, int depth) {
    return switch (field.getJavaType()) {
      case MESSAGE -> redact((Message) value, sensitive, depth + 1);
      case STRING -> sensitive ? REDACTED : value;
      case BYTE_STRING -> sensitive ? ByteString.copyFromUtf8(REDACTED) : value;
      default -> value;
    };
  }

  private Message redactAny(Any any, boolean sensitive, int depth) {
    Optional<Descriptor> type = descriptor(any.getTypeUrl());
    if (type.isEmpty()) {
      types.add(Struct.getDescriptor());
      return Any.pack(Struct.newBuilder()
          .putFields(UNKNOWN_TYPE_FIELD, Value.newBuilder().setStringValue(any.getTypeUrl()).build())
          .putFields("bytes", Value.newBuilder().setNumberValue(any.getValue().size()).build()).build());
    }
    types.add(type.get());
    try {
      Message inner = DynamicMessage.parseFrom(type.get(), any.getValue());
      return Any.newBuilder().setTypeUrl(any.getTypeUrl())
          .setValue(redact(inner, sensitive, depth + 1).toByteString()).build();
    } catch (InvalidProtocolBufferException e) {
      types.add(Struct.getDescriptor());
      return Any.pack(Struct.newBuilder()
          .putFields(UNKNOWN_TYPE_FIELD, Value.newBuilder().setStringValue(any.getTypeUrl()).build())
          .putFields("unreadable", Value.newBuilder().setStringValue(e.getMessage()).build()).build());
    }
  }

  private static Any asAny(Message message) {
    try {
      return Any.parseFrom(message.toByteString());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("an Any that does not read back as one", e); // same bytes, same schema
    }
  }

  private static boolean isSensitive(FieldDescriptor field) {
    return field.getOptions().getExtension(udpa.annotations.Sensitive.sensitive);
  }

  /**
   * The descriptor of a packed type, found by the generated class its name maps to (e.g.
   * {@code envoy.config.cluster.v3.Cluster} to {@code io.envoyproxy.envoy.config.cluster.v3.Cluster}); only
   * classes under the known API packages that are protobuf messages are considered, and none is initialised
   * before it is checked to be one.
   */
  static Optional<Descriptor> descriptor(String typeUrl) {
    String name = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
    return DESCRIPTORS.computeIfAbsent(name, Redaction::lookUp);
  }

  private static Optional<Descriptor> lookUp(String name) {
    for (Map.Entry<String, String> prefix : JAVA_PREFIXES.entrySet()) {
      if (!name.startsWith(prefix.getKey()) || name.length() > 300) {
        continue;
      }
      String className = prefix.getValue() + name;
      // Nested messages are inner classes: try Outer$Inner for the last few dots too.
      for (int nesting = 0; nesting < 4; nesting++) {
        Optional<Descriptor> found = load(className, name);
        if (found.isPresent()) {
          return found;
        }
        int dot = className.lastIndexOf('.');
        if (dot < 0) {
          break;
        }
        className = className.substring(0, dot) + "$" + className.substring(dot + 1);
      }
    }
    return Optional.empty();
  }

  private static Optional<Descriptor> load(String className, String fullName) {
    try {
      Class<?> c = Class.forName(className, false, Redaction.class.getClassLoader());
      if (!Message.class.isAssignableFrom(c)) {
        return Optional.empty();
      }
      Descriptor d = (Descriptor) c.getMethod("getDescriptor").invoke(null);
      return d.getFullName().equals(fullName) ? Optional.of(d) : Optional.empty();
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      return Optional.empty();
    }
  }
}
