package io.holdfast.xds.envoycheck;

import static io.holdfast.xds.envoycheck.RuleAssertions.accepts;
import static io.holdfast.xds.envoycheck.RuleAssertions.rejects;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import io.envoyproxy.pgv.validate.Validate.BoolRules;
import io.envoyproxy.pgv.validate.Validate.DoubleRules;
import io.envoyproxy.pgv.validate.Validate.EnumRules;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import io.envoyproxy.pgv.validate.Validate.FloatRules;
import io.envoyproxy.pgv.validate.Validate.Fixed64Rules;
import io.envoyproxy.pgv.validate.Validate.Int32Rules;
import io.envoyproxy.pgv.validate.Validate.Int64Rules;
import io.envoyproxy.pgv.validate.Validate.SFixed32Rules;
import io.envoyproxy.pgv.validate.Validate.SInt64Rules;
import io.envoyproxy.pgv.validate.Validate.UInt32Rules;
import io.envoyproxy.pgv.validate.Validate.UInt64Rules;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class NumberRulesTest {

  private static Probe int32(UnaryOperator<Int32Rules.Builder> rules) {
    return Probe.scalar(Type.TYPE_INT32,
        FieldRules.newBuilder().setInt32(rules.apply(Int32Rules.newBuilder())).build());
  }

  @Test
  void oneSidedBounds() {
    rejects(int32(r -> r.setGt(0)), 0, "int32.gt 0");
    accepts(int32(r -> r.setGt(0)), 1);
    rejects(int32(r -> r.setGte(1)), 0, "int32.gte 1");
    accepts(int32(r -> r.setGte(1)), 1);
    rejects(int32(r -> r.setLt(600)), 600, "int32.lt 600");
    accepts(int32(r -> r.setLt(600)), 599);
    rejects(int32(r -> r.setLte(100)), 101, "int32.lte 100");
    accepts(int32(r -> r.setLte(100)), 100);
  }

  @Test
  void bothBoundsMeanInsideWhenUpperIsAboveLower() {
    Probe open = int32(r -> r.setGt(5).setLt(10));
    accepts(open, 6, 9);
    rejects(open, 5, "int32.gt 5 lt 10");
    rejects(open, 10, "int32.gt 5 lt 10");
    Probe closed = int32(r -> r.setGte(5).setLte(10));
    accepts(closed, 5, 10);
    rejects(closed, 11, "int32.gte 5 lte 10");
    Probe halfOpen = int32(r -> r.setGte(5).setLt(10));
    accepts(halfOpen, 5);
    rejects(halfOpen, 10, "int32.gte 5 lt 10");
    Probe otherHalf = int32(r -> r.setGt(5).setLte(10));
    accepts(otherHalf, 10);
    rejects(otherHalf, 5, "int32.gt 5 lte 10");
  }

  @Test
  void bothBoundsMeanOutsideWhenUpperIsNotAboveLower() {
    // PGV's exclusive ranges: {gt: 10, lt: 5} reads "greater than 10 or less than 5".
    Probe outside = int32(r -> r.setGt(10).setLt(5));
    accepts(outside, 4, 11, -100);
    rejects(outside, 5, "int32.gt 10 lt 5");
    rejects(outside, 7, "int32.gt 10 lt 5");
    rejects(outside, 10, "int32.gt 10 lt 5");
    Probe inclusive = int32(r -> r.setGte(10).setLte(5));
    accepts(inclusive, 5, 10);
    rejects(inclusive, 6, "int32.gte 10 lte 5");
    Probe mixed = int32(r -> r.setGte(10).setLt(5));
    accepts(mixed, 10, 4);
    rejects(mixed, 5, "int32.gte 10 lt 5");
    Probe mixedOther = int32(r -> r.setGt(10).setLte(5));
    accepts(mixedOther, 5, 11);
    rejects(mixedOther, 10, "int32.gt 10 lte 5");
    // Equal bounds are "not above" too: only the bound itself is excluded.
    Probe equal = int32(r -> r.setGt(7).setLt(7));
    accepts(equal, 6, 8);
    rejects(equal, 7, "int32.gt 7 lt 7");
  }

  @Test
  void constInAndNotIn() {
    rejects(int32(r -> r.setConst(3)), 4, "int32.const 3");
    accepts(int32(r -> r.setConst(3)), 3);
    rejects(int32(r -> r.addIn(1).addIn(2)), 3, "int32.in [1, 2]");
    accepts(int32(r -> r.addIn(1).addIn(2)), 2);
    rejects(int32(r -> r.addNotIn(0)), 0, "int32.not_in [0]");
    accepts(int32(r -> r.addNotIn(0)), 1);
  }

  @Test
  void ignoreEmptySkipsZero() {
    Probe probe = int32(r -> r.setGte(1024).setIgnoreEmpty(true));
    accepts(probe, 0, 1024);
    rejects(probe, 1, "int32.gte 1024");
  }

  @Test
  void unsignedTypesCompareAsUnsigned() {
    Probe uint32 = Probe.scalar(Type.TYPE_UINT32, FieldRules.newBuilder()
        .setUint32(UInt32Rules.newBuilder().setGt(Integer.MAX_VALUE)).build());
    accepts(uint32, -1); // 4294967295
    rejects(uint32, 5, "uint32.gt 2147483647");
    Probe uint64 = Probe.scalar(Type.TYPE_UINT64, FieldRules.newBuilder()
        .setUint64(UInt64Rules.newBuilder().setLte(-2L)).build()); // lte 18446744073709551614
    accepts(uint64, Long.MAX_VALUE);
    rejects(uint64, -1L, "uint64.lte 18446744073709551614");
    Probe fixed64 = Probe.scalar(Type.TYPE_FIXED64, FieldRules.newBuilder()
        .setFixed64(Fixed64Rules.newBuilder().setGte(1)).build());
    rejects(fixed64, 0L, "fixed64.gte 1");
  }

  @Test
  void everyOtherNumberType() {
    rejects(Probe.scalar(Type.TYPE_INT64, FieldRules.newBuilder().setInt64(Int64Rules.newBuilder().setLt(0)).build()),
        0L, "int64.lt 0");
    rejects(Probe.scalar(Type.TYPE_SINT64, FieldRules.newBuilder().setSint64(SInt64Rules.newBuilder().setGt(-1))
        .build()), -1L, "sint64.gt -1");
    rejects(Probe.scalar(Type.TYPE_SFIXED32, FieldRules.newBuilder().setSfixed32(SFixed32Rules.newBuilder()
        .addIn(8)).build()), 9, "sfixed32.in [8]");
    Probe percent = Probe.scalar(Type.TYPE_DOUBLE, FieldRules.newBuilder()
        .setDouble(DoubleRules.newBuilder().setGte(0).setLte(100)).build());
    accepts(percent, 0.0, 100.0, 33.3);
    rejects(percent, 100.5, "double.gte 0.0 lte 100.0");
    rejects(Probe.scalar(Type.TYPE_FLOAT, FieldRules.newBuilder().setFloat(FloatRules.newBuilder().setGt(0))
        .build()), 0f, "float.gt 0.0");
  }

  @Test
  void boolConst() {
    Probe mustBeTrue = Probe.scalar(Type.TYPE_BOOL, FieldRules.newBuilder()
        .setBool(BoolRules.newBuilder().setConst(true)).build());
    accepts(mustBeTrue, true);
    rejects(mustBeTrue, false, "bool.const true");
  }

  @Test
  void enumRules() {
    Probe definedOnly = Probe.typed(".holdfast.probe.Color", FieldRules.newBuilder()
        .setEnum(EnumRules.newBuilder().setDefinedOnly(true)).build());
    accepts(definedOnly, 0, 2);
    rejects(definedOnly, 7, "enum.defined_only holdfast.probe.Color");
    accepts(Probe.typed(".holdfast.probe.Color", FieldRules.getDefaultInstance()), 7);
    rejects(Probe.typed(".holdfast.probe.Color", FieldRules.newBuilder().setEnum(EnumRules.newBuilder()
        .addNotIn(0)).build()), 0, "enum.not_in [0]");
    rejects(Probe.typed(".holdfast.probe.Color", FieldRules.newBuilder().setEnum(EnumRules.newBuilder()
        .addIn(1).addIn(2)).build()), 0, "enum.in [1, 2]");
    rejects(Probe.typed(".holdfast.probe.Color", FieldRules.newBuilder().setEnum(EnumRules.newBuilder()
        .setConst(1)).build()), 2, "enum.const 1");
  }
}
