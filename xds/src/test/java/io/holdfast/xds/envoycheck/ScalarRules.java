package io.holdfast.xds.envoycheck;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.envoyproxy.pgv.validate.Validate.BoolRules;
import io.envoyproxy.pgv.validate.Validate.BytesRules;
import io.envoyproxy.pgv.validate.Validate.EnumRules;
import io.envoyproxy.pgv.validate.Validate.StringRules;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;

/** Rules on one scalar value: strings, bytes, bools, enums and the twelve number types. */
final class ScalarRules {

  private static final Comparator<Number> NUMERIC = ScalarRules::compare;

  private final Findings findings;

  ScalarRules(Findings findings) {
    this.findings = findings;
  }

  void string(String path, String value, StringRules rules) {
    findings.account("string", rules);
    if (rules.getIgnoreEmpty() && value.isEmpty()) {
      return;
    }
    String shown = Findings.show(value);
    int characters = value.codePointCount(0, value.length());
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    check(path, rules.hasConst() && !value.equals(rules.getConst()), "string.const " + Findings.show(rules.getConst()),
        shown);
    check(path, rules.getInCount() > 0 && !rules.getInList().contains(value), "string.in " + rules.getInList(), shown);
    check(path, rules.getNotInList().contains(value), "string.not_in " + rules.getNotInList(), shown);
    check(path, rules.hasLen() && characters != rules.getLen(), "string.len " + rules.getLen(),
        characters + " characters");
    check(path, rules.hasMinLen() && characters < rules.getMinLen(), "string.min_len " + rules.getMinLen(),
        characters + " characters");
    check(path, rules.hasMaxLen() && characters > rules.getMaxLen(), "string.max_len " + rules.getMaxLen(),
        characters + " characters");
    check(path, rules.hasLenBytes() && bytes != rules.getLenBytes(), "string.len_bytes " + rules.getLenBytes(),
        bytes + " bytes");
    check(path, rules.hasMinBytes() && bytes < rules.getMinBytes(), "string.min_bytes " + rules.getMinBytes(),
        bytes + " bytes");
    check(path, rules.hasMaxBytes() && bytes > rules.getMaxBytes(), "string.max_bytes " + rules.getMaxBytes(),
        bytes + " bytes");
    check(path, rules.hasPrefix() && !value.startsWith(rules.getPrefix()),
        "string.prefix " + Findings.show(rules.getPrefix()), shown);
    check(path, rules.hasSuffix() && !value.endsWith(rules.getSuffix()),
        "string.suffix " + Findings.show(rules.getSuffix()), shown);
    check(path, rules.hasContains() && !value.contains(rules.getContains()),
        "string.contains " + Findings.show(rules.getContains()), shown);
    check(path, rules.hasNotContains() && value.contains(rules.getNotContains()),
        "string.not_contains " + Findings.show(rules.getNotContains()), shown);
    check(path, rules.hasPattern() && !Formats.fullMatch(rules.getPattern(), value),
        "string.pattern " + Findings.show(rules.getPattern()), shown);
    wellKnown(path, value, rules, shown);
  }

  private void wellKnown(String path, String value, StringRules rules, String shown) {
    switch (rules.getWellKnownCase()) {
      case HOSTNAME -> check(path, rules.getHostname() && !Formats.hostname(value), "string.hostname", shown);
      case ADDRESS -> check(path, rules.getAddress() && !Formats.address(value), "string.address", shown);
      case IP -> check(path, rules.getIp() && !Formats.ip(value), "string.ip", shown);
      case IPV4 -> check(path, rules.getIpv4() && !Formats.ipv4(value), "string.ipv4", shown);
      case IPV6 -> check(path, rules.getIpv6() && !Formats.ipv6(value), "string.ipv6", shown);
      case URI -> check(path, rules.getUri() && !Formats.uri(value, true), "string.uri", shown);
      case URI_REF -> check(path, rules.getUriRef() && !Formats.uri(value, false), "string.uri_ref", shown);
      case UUID -> check(path, rules.getUuid() && !Formats.uuid(value), "string.uuid", shown);
      case WELL_KNOWN_REGEX -> {
        String pattern = Formats.wellKnownPattern(rules.getWellKnownRegex(), rules.getStrict());
        check(path, pattern != null && !Formats.fullMatch(pattern, value),
            "string.well_known_regex " + rules.getWellKnownRegex() + (rules.getStrict() ? "" : " strict false"), shown);
      }
      default -> {
        // EMAIL is counted as unenforced by Findings.account; WELLKNOWN_NOT_SET asks for nothing.
      }
    }
  }

  void bytes(String path, ByteString value, BytesRules rules) {
    findings.account("bytes", rules);
    if (rules.getIgnoreEmpty() && value.isEmpty()) {
      return;
    }
    String shown = value.size() + " bytes";
    int size = value.size();
    check(path, rules.hasConst() && !value.equals(rules.getConst()), "bytes.const", shown);
    check(path, rules.getInCount() > 0 && !rules.getInList().contains(value), "bytes.in", shown);
    check(path, rules.getNotInList().contains(value), "bytes.not_in", shown);
    check(path, rules.hasLen() && size != rules.getLen(), "bytes.len " + rules.getLen(), shown);
    check(path, rules.hasMinLen() && size < rules.getMinLen(), "bytes.min_len " + rules.getMinLen(), shown);
    check(path, rules.hasMaxLen() && size > rules.getMaxLen(), "bytes.max_len " + rules.getMaxLen(), shown);
    check(path, rules.hasPrefix() && !value.startsWith(rules.getPrefix()), "bytes.prefix", shown);
    check(path, rules.hasSuffix() && !value.endsWith(rules.getSuffix()), "bytes.suffix", shown);
    check(path, rules.hasContains() && indexOf(value, rules.getContains()) < 0, "bytes.contains", shown);
    check(path, rules.hasPattern() && !Formats.fullMatch(rules.getPattern(), value.toStringUtf8()),
        "bytes.pattern " + Findings.show(rules.getPattern()), shown);
    boolean mappedV4 = size == 16 && value.startsWith(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        (byte) 0xff, (byte) 0xff}));
    check(path, rules.getIp() && size != 4 && size != 16, "bytes.ip", shown);
    check(path, rules.getIpv4() && size != 4 && !mappedV4, "bytes.ipv4", shown);
    check(path, rules.getIpv6() && (size != 16 || mappedV4), "bytes.ipv6", shown);
  }

  void bool(String path, boolean value, BoolRules rules) {
    findings.account("bool", rules);
    check(path, rules.hasConst() && value != rules.getConst(), "bool.const " + rules.getConst(), String.valueOf(value));
  }

  void enumeration(String path, FieldDescriptor field, EnumValueDescriptor value, EnumRules rules) {
    findings.account("enum", rules);
    int number = value.getNumber();
    String shown = field.getEnumType().findValueByNumber(number) == null ? String.valueOf(number)
        : value.getName() + " (" + number + ")";
    check(path, rules.hasConst() && number != rules.getConst(), "enum.const " + rules.getConst(), shown);
    check(path, rules.getInCount() > 0 && !rules.getInList().contains(number), "enum.in " + rules.getInList(), shown);
    check(path, rules.getNotInList().contains(number), "enum.not_in " + rules.getNotInList(), shown);
    check(path, rules.getDefinedOnly() && field.getEnumType().findValueByNumber(number) == null,
        "enum.defined_only " + field.getEnumType().getFullName(), shown);
  }

  /**
   * {@code rules} is one of PGV's twelve {@code *Rules} number messages, which share field names; its values
   * and {@code value} are of the type named by {@code rulesType} (e.g. {@code uint32} values are unsigned).
   */
  void number(String path, String rulesType, FieldDescriptor valueField, Object value, Message rules) {
    findings.account(rulesType, rules);
    Number actual = normalise(value, valueField.getType());
    if (Boolean.TRUE.equals(rule(rules, "ignore_empty")) && compare(actual, BigInteger.ZERO) == 0) {
      return;
    }
    String shown = String.valueOf(actual);
    Number constant = bound(rules, "const");
    check(path, constant != null && compare(actual, constant) != 0, rulesType + ".const " + constant, shown);
    Bounds<Number> bounds = new Bounds<>(bound(rules, "lt"), bound(rules, "lte"), bound(rules, "gt"),
        bound(rules, "gte"));
    check(path, bounds.any() && !bounds.admits(actual, NUMERIC), rulesType + "." + bounds.describe(String::valueOf),
        shown);
    List<Number> in = list(rules, "in");
    List<Number> notIn = list(rules, "not_in");
    check(path, !in.isEmpty() && in.stream().noneMatch(n -> compare(n, actual) == 0), rulesType + ".in " + in, shown);
    check(path, notIn.stream().anyMatch(n -> compare(n, actual) == 0), rulesType + ".not_in " + notIn, shown);
  }

  private void check(String path, boolean broken, String rule, String actual) {
    if (broken) {
      findings.violation(path, rule, actual);
    }
  }

  private static Object rule(Message rules, String name) {
    FieldDescriptor field = rules.getDescriptorForType().findFieldByName(name);
    return field != null && rules.hasField(field) ? rules.getField(field) : null;
  }

  private static Number bound(Message rules, String name) {
    FieldDescriptor field = rules.getDescriptorForType().findFieldByName(name);
    return rules.hasField(field) ? normalise(rules.getField(field), field.getType()) : null;
  }

  private static List<Number> list(Message rules, String name) {
    FieldDescriptor field = rules.getDescriptorForType().findFieldByName(name);
    return ((List<?>) rules.getField(field)).stream().map(v -> normalise(v, field.getType())).toList();
  }

  /** Integers as BigInteger (unsigned types read as unsigned), floating point as Double. */
  private static Number normalise(Object value, FieldDescriptor.Type type) {
    return switch (type) {
      case FLOAT, DOUBLE -> ((Number) value).doubleValue();
      case UINT32, FIXED32 -> BigInteger.valueOf(Integer.toUnsignedLong((Integer) value));
      case UINT64, FIXED64 -> new BigInteger(Long.toUnsignedString((Long) value));
      default -> BigInteger.valueOf(((Number) value).longValue());
    };
  }

  private static int compare(Number a, Number b) {
    if (a instanceof BigInteger x && b instanceof BigInteger y) {
      return x.compareTo(y);
    }
    double x = a.doubleValue();
    double y = b.doubleValue();
    return x == y ? 0 : Double.compare(x, y);
  }

  private static int indexOf(ByteString haystack, ByteString needle) {
    for (int i = 0; i + needle.size() <= haystack.size(); i++) {
      if (haystack.substring(i, i + needle.size()).equals(needle)) {
        return i;
      }
    }
    return -1;
  }
}
