package io.holdfast.xds.envoycheck;

import static io.holdfast.xds.envoycheck.RuleAssertions.accepts;
import static io.holdfast.xds.envoycheck.RuleAssertions.rejects;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.pgv.validate.Validate.AnyRules;
import io.envoyproxy.pgv.validate.Validate.DurationRules;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import io.envoyproxy.pgv.validate.Validate.Int32Rules;
import io.envoyproxy.pgv.validate.Validate.MapRules;
import io.envoyproxy.pgv.validate.Validate.MessageRules;
import io.envoyproxy.pgv.validate.Validate.RepeatedRules;
import io.envoyproxy.pgv.validate.Validate.StringRules;
import io.envoyproxy.pgv.validate.Validate.TimestampRules;
import io.envoyproxy.pgv.validate.Validate.UInt32Rules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerRulesTest {

  private static final FieldRules MIN_LEN_1 = FieldRules.newBuilder()
      .setString(StringRules.newBuilder().setMinLen(1)).build();

  private static Probe repeatedStrings(RepeatedRules.Builder rules) {
    return Probe.repeated(Type.TYPE_STRING, FieldRules.newBuilder().setRepeated(rules).build());
  }

  @Test
  void repeatedCountsUniquenessAndItemRules() {
    rejects(repeatedStrings(RepeatedRules.newBuilder().setMinItems(1)), List.of(), "repeated.min_items 1");
    accepts(repeatedStrings(RepeatedRules.newBuilder().setMinItems(1)), List.of("a"));
    rejects(repeatedStrings(RepeatedRules.newBuilder().setMaxItems(1)), List.of("a", "b"), "repeated.max_items 1");
    accepts(repeatedStrings(RepeatedRules.newBuilder().setMinItems(1).setIgnoreEmpty(true)), List.of());

    Probe unique = repeatedStrings(RepeatedRules.newBuilder().setUnique(true));
    accepts(unique, List.of("a", "b"));
    assertThat(unique.check(List.of("a", "b", "a"))).containsExactly(new Violation("v[2]", "repeated.unique", "\"a\""));

    Probe items = repeatedStrings(RepeatedRules.newBuilder().setItems(MIN_LEN_1));
    accepts(items, List.of("a", "b"));
    assertThat(items.check(List.of("a", "")))
        .containsExactly(new Violation("v[1]", "string.min_len 1", "0 characters"));
  }

  @Test
  void repeatedMessagesAreWalkedEach() {
    Probe inners = Probe.of(Probe.field(Type.TYPE_MESSAGE, Label.LABEL_REPEATED, FieldRules.getDefaultInstance())
        .toBuilder().setTypeName(".holdfast.probe.Inner").build());
    assertThat(inners.check(List.of(inners.inner("ok"), inners.inner(""))))
        .containsExactly(new Violation("v[1].name", "string.min_len 1", "0 characters"));
  }

  @Test
  void mapPairsKeysAndValues() {
    Probe pairs = Probe.map(FieldRules.newBuilder()
        .setMap(MapRules.newBuilder().setMinPairs(1).setMaxPairs(2)).build());
    rejects(pairs, Map.of(), "map.min_pairs 1");
    rejects(pairs, Map.of("a", 1, "b", 2, "c", 3), "map.max_pairs 2");
    accepts(pairs, Map.of("a", 1));

    Map<String, Integer> entries = new LinkedHashMap<>();
    entries.put("", 1);
    entries.put("b", 0);
    Probe keysAndValues = Probe.map(FieldRules.newBuilder().setMap(MapRules.newBuilder().setKeys(MIN_LEN_1)
        .setValues(FieldRules.newBuilder().setInt32(Int32Rules.newBuilder()
            .setGt(0)))).build());
    assertThat(keysAndValues.check(entries)).containsExactlyInAnyOrder(
        new Violation("v[](key)", "string.min_len 1", "0 characters"),
        new Violation("v[b]", "int32.gt 0", "0"));
  }

  @Test
  void durationRules() {
    Probe positive = Probe.typed(".google.protobuf.Duration", FieldRules.newBuilder()
        .setDuration(DurationRules.newBuilder().setRequired(true).setGt(Duration.getDefaultInstance())).build());
    accepts(positive, Duration.newBuilder().setNanos(1).build());
    rejects(positive, Duration.newBuilder().setSeconds(-1).build(), "duration.gt 0s");
    rejects(positive, Duration.getDefaultInstance(), "duration.gt 0s");
    assertThat(EnvoyConstraints.check(positive.unset()))
        .containsExactly(new Violation("v", "duration.required", "unset"));

    Probe window = Probe.typed(".google.protobuf.Duration", FieldRules.newBuilder().setDuration(DurationRules
        .newBuilder().setGte(Duration.newBuilder().setNanos(1_000_000)).setLt(Duration.newBuilder().setSeconds(600)))
        .build());
    accepts(window, Duration.newBuilder().setNanos(1_000_000).build(), Duration.newBuilder().setSeconds(599).build());
    rejects(window, Duration.newBuilder().setSeconds(600).build(), "duration.gte 0.001s lt 600s");
    rejects(window, Duration.newBuilder().setSeconds(315_576_000_001L).build(), "duration.valid");

    Probe listed = Probe.typed(".google.protobuf.Duration", FieldRules.newBuilder().setDuration(DurationRules
        .newBuilder().addIn(Duration.newBuilder().setSeconds(1)).setConst(Duration.newBuilder().setSeconds(1)))
        .build());
    accepts(listed, Duration.newBuilder().setSeconds(1).build());
    rejects(listed, Duration.newBuilder().setSeconds(2).build(), "duration.const 1s", "duration.in [1s]");
    rejects(Probe.typed(".google.protobuf.Duration", FieldRules.newBuilder().setDuration(DurationRules.newBuilder()
        .addNotIn(Duration.getDefaultInstance())).build()), Duration.getDefaultInstance(), "duration.not_in [0s]");
    accepts(Probe.typed(".google.protobuf.Duration", FieldRules.getDefaultInstance()),
        Duration.newBuilder().setSeconds(-5).build());
  }

  @Test
  void timestampRules() {
    Timestamp epochPlus10 = Timestamp.newBuilder().setSeconds(10).build();
    Probe after = Probe.typed(".google.protobuf.Timestamp", FieldRules.newBuilder().setTimestamp(TimestampRules
        .newBuilder().setRequired(true).setGt(epochPlus10)).build());
    accepts(after, Timestamp.newBuilder().setSeconds(11).build());
    rejects(after, epochPlus10, "timestamp.gt 1970-01-01T00:00:10Z");
    assertThat(EnvoyConstraints.check(after.unset()))
        .containsExactly(new Violation("v", "timestamp.required", "unset"));
    rejects(Probe.typed(".google.protobuf.Timestamp", FieldRules.newBuilder().setTimestamp(TimestampRules.newBuilder()
        .setConst(epochPlus10)).build()), Timestamp.getDefaultInstance(), "timestamp.const 1970-01-01T00:00:10Z");
  }

  @Test
  void anyRulesOnTheTypeUrl() {
    Any duration = Any.pack(Duration.newBuilder().setSeconds(1).build());
    Probe any = Probe.typed(".google.protobuf.Any", FieldRules.newBuilder().setAny(AnyRules.newBuilder()
        .setRequired(true).addIn("type.googleapis.com/google.protobuf.Duration")).build());
    accepts(any, duration);
    rejects(any, Any.pack(Timestamp.getDefaultInstance()),
        "any.in [type.googleapis.com/google.protobuf.Duration]");
    assertThat(EnvoyConstraints.check(any.unset())).containsExactly(new Violation("v", "any.required", "unset"));
    rejects(Probe.typed(".google.protobuf.Any", FieldRules.newBuilder().setAny(AnyRules.newBuilder()
        .addNotIn("type.googleapis.com/google.protobuf.Duration")).build()), duration,
        "any.not_in [type.googleapis.com/google.protobuf.Duration]");
  }

  @Test
  void anyPayloadsOfUnknownOrUnparsableTypeAreReportedNotSkipped() {
    Probe any = Probe.typed(".google.protobuf.Any", FieldRules.getDefaultInstance());
    rejects(any, Any.newBuilder().setTypeUrl("type.googleapis.com/holdfast.Unknown").build(), "checker.known_any_type");
    rejects(any, Any.newBuilder().setTypeUrl("type.googleapis.com/google.protobuf.Duration")
        .setValue(ByteString.copyFrom(new byte[] {(byte) 0xff})).build(), "checker.parsable_any");
    // Bytes of another type: Duration's field 1 read as Timestamp.seconds is fine, field 7 is unknown to both.
    Any mislabelled = Any.newBuilder().setTypeUrl("type.googleapis.com/google.protobuf.Timestamp")
        .setValue(ByteString.copyFrom(new byte[] {0x38, 0x01})).build();
    assertThat(any.check(mislabelled)).containsExactly(
        new Violation("v(Timestamp)", "checker.no_unknown_fields", "field numbers [7]"));
  }

  @Test
  void messageRequiredAndSkip() {
    Probe required = Probe.typed(".holdfast.probe.Inner", FieldRules.newBuilder()
        .setMessage(MessageRules.newBuilder().setRequired(true)).build());
    assertThat(EnvoyConstraints.check(required.unset()))
        .containsExactly(new Violation("v", "message.required", "unset"));
    assertThat(required.check(required.inner(""))).containsExactly(
        new Violation("v.name", "string.min_len 1", "0 characters"));
    Probe skipped = Probe.typed(".holdfast.probe.Inner", FieldRules.newBuilder()
        .setMessage(MessageRules.newBuilder().setSkip(true)).build());
    assertThat(skipped.check(skipped.inner(""))).isEmpty();
    Probe plain = Probe.typed(".holdfast.probe.Inner", FieldRules.getDefaultInstance());
    assertThat(EnvoyConstraints.check(plain.unset())).isEmpty();
  }

  @Test
  void wrapperRulesApplyToTheWrappedValueWhenSet() {
    Probe weight = Probe.typed(".google.protobuf.UInt32Value", FieldRules.newBuilder()
        .setUint32(UInt32Rules.newBuilder().setGte(1)).build());
    accepts(weight, UInt32Value.of(1));
    rejects(weight, UInt32Value.of(0), "uint32.gte 1");
    assertThat(EnvoyConstraints.check(weight.unset())).isEmpty();
    Probe requiredWeight = Probe.typed(".google.protobuf.UInt32Value", FieldRules.newBuilder()
        .setUint32(UInt32Rules.newBuilder().setGte(1)).setMessage(MessageRules.newBuilder().setRequired(true)).build());
    assertThat(EnvoyConstraints.check(requiredWeight.unset()))
        .containsExactly(new Violation("v", "message.required", "unset"));
  }

  @Test
  void rulesOfTheWrongTypeAreReported() {
    Probe misfit = Probe.scalar(Type.TYPE_INT32, MIN_LEN_1);
    rejects(misfit, 3, "checker.rules_fit_type");
    rejects(Probe.scalar(Type.TYPE_STRING, FieldRules.newBuilder().setRepeated(RepeatedRules.newBuilder()
        .setMinItems(1)).build()), "x", "checker.rules_fit_type");
  }
}
