package io.holdfast.xds.envoycheck;

import com.google.protobuf.Any;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FieldOptions;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.pgv.validate.Validate;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A message type built at run time with one field {@code v} carrying the PGV rules under test, so each rule kind
 * can be exercised on exactly the value type it is written for. Its file also holds {@code enum Color {RED = 0;
 * GREEN = 1; BLUE = 2}} and {@code message Inner {string name = 1 [min_len 1]}}.
 */
record Probe(Descriptor type) {

  static final String PACKAGE = "holdfast.probe";
  private static final AtomicInteger FILES = new AtomicInteger();
  private static final List<FileDescriptor> DEPENDENCIES = List.of(Duration.getDescriptor().getFile(),
      Timestamp.getDescriptor().getFile(), Any.getDescriptor().getFile(), UInt32Value.getDescriptor().getFile());

  static Probe scalar(Type type, FieldRules rules) {
    return of(field(type, Label.LABEL_OPTIONAL, rules));
  }

  /** {@code typeName} like {@code .google.protobuf.Duration}, {@code .holdfast.probe.Inner} or {@code ...Color}. */
  static Probe typed(String typeName, FieldRules rules) {
    Type type = typeName.endsWith("Color") ? Type.TYPE_ENUM : Type.TYPE_MESSAGE;
    return of(field(type, Label.LABEL_OPTIONAL, rules).toBuilder().setTypeName(typeName).build());
  }

  static Probe repeated(Type type, FieldRules rules) {
    return of(field(type, Label.LABEL_REPEATED, rules));
  }

  /** {@code map<string, int32> v}. */
  static Probe map(FieldRules rules) {
    DescriptorProto entry = DescriptorProto.newBuilder().setName("VEntry")
        .setOptions(MessageOptions.newBuilder().setMapEntry(true))
        .addField(FieldDescriptorProto.newBuilder().setName("key").setNumber(1).setType(Type.TYPE_STRING)
            .setLabel(Label.LABEL_OPTIONAL))
        .addField(FieldDescriptorProto.newBuilder().setName("value").setNumber(2).setType(Type.TYPE_INT32)
            .setLabel(Label.LABEL_OPTIONAL))
        .build();
    FieldDescriptorProto field = field(Type.TYPE_MESSAGE, Label.LABEL_REPEATED, rules).toBuilder()
        .setTypeName("." + PACKAGE + ".P.VEntry").build();
    return new Probe(build(DescriptorProto.newBuilder().setName("P").addNestedType(entry).addField(field).build()));
  }

  static FieldDescriptorProto field(Type type, Label label, FieldRules rules) {
    return FieldDescriptorProto.newBuilder().setName("v").setNumber(1).setType(type).setLabel(label)
        .setOptions(FieldOptions.newBuilder().setExtension(Validate.rules, rules)).build();
  }

  static Probe of(FieldDescriptorProto field) {
    return new Probe(build(DescriptorProto.newBuilder().setName("P").addField(field).build()));
  }

  /** Builds {@code message} (named P) in a fresh file with Color and Inner; returns P. */
  static Descriptor build(DescriptorProto message) {
    return buildFile(file(message)).findMessageTypeByName("P");
  }

  static FileDescriptorProto file(DescriptorProto message) {
    FieldRules nameRules = FieldRules.newBuilder().setString(Validate.StringRules.newBuilder().setMinLen(1)).build();
    return FileDescriptorProto.newBuilder()
        .setName("probe" + FILES.incrementAndGet() + ".proto").setPackage(PACKAGE).setSyntax("proto3")
        .addAllDependency(DEPENDENCIES.stream().map(FileDescriptor::getName).toList())
        .addEnumType(EnumDescriptorProto.newBuilder().setName("Color")
            .addValue(EnumValueDescriptorProto.newBuilder().setName("RED").setNumber(0))
            .addValue(EnumValueDescriptorProto.newBuilder().setName("GREEN").setNumber(1))
            .addValue(EnumValueDescriptorProto.newBuilder().setName("BLUE").setNumber(2)))
        .addMessageType(DescriptorProto.newBuilder().setName("Inner")
            .addField(field(Type.TYPE_STRING, Label.LABEL_OPTIONAL, nameRules).toBuilder().setName("name")))
        .addMessageType(message)
        .build();
  }

  FieldDescriptor v() {
    return type.findFieldByName("v");
  }

  /** A P with {@code v} set: a List for repeated fields, a Map for the map, an Integer for enums. */
  Message with(Object value) {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    FieldDescriptor v = v();
    if (v.isMapField()) {
      Descriptor entry = v.getMessageType();
      ((Map<?, ?>) value).forEach((key, val) -> builder.addRepeatedField(v, DynamicMessage.newBuilder(entry)
          .setField(entry.findFieldByName("key"), key).setField(entry.findFieldByName("value"), val).build()));
    } else if (v.isRepeated()) {
      ((List<?>) value).forEach(item -> builder.addRepeatedField(v, convert(v, item)));
    } else {
      builder.setField(v, convert(v, value));
    }
    return builder.build();
  }

  Message unset() {
    return DynamicMessage.newBuilder(type).build();
  }

  List<Violation> check(Object value) {
    return EnvoyConstraints.check(with(value));
  }

  Message inner(String name) {
    Descriptor inner = type.getFile().findMessageTypeByName("Inner");
    return DynamicMessage.newBuilder(inner).setField(inner.findFieldByName("name"), name).build();
  }

  private static Object convert(FieldDescriptor field, Object value) {
    if (field.getJavaType() == FieldDescriptor.JavaType.ENUM && value instanceof Integer number) {
      return field.getEnumType().findValueByNumberCreatingIfUnknown(number);
    }
    return value;
  }

  /** Builds a file against the well-known types it may import. */
  static FileDescriptor buildFile(FileDescriptorProto file) {
    try {
      return FileDescriptor.buildFrom(file, DEPENDENCIES.toArray(FileDescriptor[]::new));
    } catch (DescriptorValidationException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
