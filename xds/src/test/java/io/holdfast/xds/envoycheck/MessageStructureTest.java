package io.holdfast.xds.envoycheck;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.DescriptorProtos.OneofOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import io.envoyproxy.pgv.validate.Validate;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import io.envoyproxy.pgv.validate.Validate.StringRules;
import io.envoyproxy.pgv.validate.Validate.TimestampRules;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageStructureTest {

  private static final FieldRules MIN_LEN_3 = FieldRules.newBuilder()
      .setString(StringRules.newBuilder().setMinLen(3)).build();

  /**
   * {@code oneof choice {option required; string a = 1 [min_len 3]; string b = 2;}
   * optional string c = 3 [min_len 3];}
   */
  private static DescriptorProto choiceMessage() {
    return DescriptorProto.newBuilder().setName("P")
        .addOneofDecl(OneofDescriptorProto.newBuilder().setName("choice")
            .setOptions(OneofOptions.newBuilder().setExtension(Validate.required, true)))
        .addOneofDecl(OneofDescriptorProto.newBuilder().setName("_c"))
        .addField(member("a", 1, MIN_LEN_3, 0))
        .addField(member("b", 2, FieldRules.getDefaultInstance(), 0))
        .addField(member("c", 3, MIN_LEN_3, 1).toBuilder().setProto3Optional(true))
        .build();
  }

  private static FieldDescriptorProto member(String name, int number, FieldRules rules, int oneof) {
    return Probe.field(Type.TYPE_STRING, Label.LABEL_OPTIONAL, rules).toBuilder().setName(name).setNumber(number)
        .setOneofIndex(oneof).build();
  }

  private static DynamicMessage set(Descriptor type, Map<String, Object> values) {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    values.forEach((name, value) -> builder.setField(type.findFieldByName(name), value));
    return builder.build();
  }

  @Test
  void requiredOneofMustHaveAMemberAndOnlyTheSetMemberIsChecked() {
    Descriptor type = Probe.build(choiceMessage());
    assertThat(EnvoyConstraints.check(set(type, Map.of())))
        .containsExactly(new Violation("choice", "oneof.required", "none of [a, b]"));
    assertThat(EnvoyConstraints.check(set(type, Map.of("b", "")))).isEmpty();
    assertThat(EnvoyConstraints.check(set(type, Map.of("a", "xy"))))
        .containsExactly(new Violation("a", "string.min_len 3", "2 characters"));
  }

  @Test
  void proto3OptionalIsCheckedOnlyWhenSet() {
    Descriptor type = Probe.build(choiceMessage());
    assertThat(EnvoyConstraints.check(set(type, Map.of("b", "")))).isEmpty();
    assertThat(EnvoyConstraints.check(set(type, Map.of("b", "", "c", ""))))
        .containsExactly(new Violation("c", "string.min_len 3", "0 characters"));
  }

  @Test
  void disabledMessagesAreNotChecked() {
    DescriptorProto message = DescriptorProto.newBuilder().setName("P")
        .setOptions(MessageOptions.newBuilder().setExtension(Validate.disabled, true))
        .addField(Probe.field(Type.TYPE_STRING, Label.LABEL_OPTIONAL, MIN_LEN_3)).build();
    assertThat(EnvoyConstraints.check(set(Probe.build(message), Map.of("v", "")))).isEmpty();
  }

  @Test
  void optionsLeftUnparsedByADescriptorBuiltWithoutTheValidateRegistryAreStillEnforced()
      throws InvalidProtocolBufferException {
    DescriptorProto message = choiceMessage().toBuilder()
        .addField(Probe.field(Type.TYPE_STRING, Label.LABEL_OPTIONAL, MIN_LEN_3).toBuilder().setNumber(4)).build();
    FileDescriptorProto reread = FileDescriptorProto.parseFrom(Probe.file(message).toByteString());
    Descriptor type = Probe.buildFile(reread).findMessageTypeByName("P");
    // Precondition: the rules really are unknown fields here, not parsed extensions.
    assertThat(type.findFieldByName("v").getOptions().hasExtension(Validate.rules)).isFalse();
    assertThat(type.findFieldByName("v").getOptions().getUnknownFields().hasField(1071)).isTrue();
    assertThat(type.getOneofs().get(0).getOptions().hasExtension(Validate.required)).isFalse();

    assertThat(EnvoyConstraints.check(set(type, Map.of("v", "ab")))).containsExactly(
        new Violation("choice", "oneof.required", "none of [a, b]"),
        new Violation("v", "string.min_len 3", "2 characters"));
  }

  @Test
  void rulesTheCheckerCannotEvaluateAreCountedNotPassed() {
    Probe recent = Probe.typed(".google.protobuf.Timestamp", FieldRules.newBuilder()
        .setTimestamp(TimestampRules.newBuilder().setLtNow(true).setWithin(Duration.newBuilder()
            .setSeconds(60))).build());
    Report report = EnvoyConstraints.inspect("", recent.with(Timestamp.getDefaultInstance()));
    assertThat(report.violations()).isEmpty();
    assertThat(report.unenforced()).containsExactly(Map.entry("timestamp.lt_now", 1), Map.entry("timestamp.within", 1));
    assertThat(report.clean()).isFalse();
    assertThat(report.toString()).contains("not enforced by the checker: timestamp.lt_now (on 1 value)");

    Probe email = Probe.scalar(Type.TYPE_STRING, FieldRules.newBuilder()
        .setString(StringRules.newBuilder().setEmail(true)).build());
    assertThat(EnvoyConstraints.inspect("", email.with("a@b.test")).unenforced()).containsOnlyKeys("string.email");
    Probe notEmail = Probe.scalar(Type.TYPE_STRING, FieldRules.newBuilder()
        .setString(StringRules.newBuilder().setEmail(false)).build());
    assertThat(EnvoyConstraints.inspect("", notEmail.with("x")).clean()).isTrue();
  }
}
