package io.holdfast.xds.envoycheck;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.Timestamp;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import io.envoyproxy.pgv.validate.Validate.MapRules;
import io.envoyproxy.pgv.validate.Validate.MessageRules;
import io.envoyproxy.pgv.validate.Validate.RepeatedRules;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Walks one message tree by reflection and applies the PGV rules of each field, the way PGV's generated C++
 * (Envoy's) does: a oneof member or proto3 {@code optional} field is checked only when set, other scalars always
 * (so {@code min_len 1} fails on an empty string), set sub-messages are walked unless {@code message.skip}, and
 * elements get their {@code items}/{@code keys}/{@code values} rules. Unlike PGV it also opens Any payloads
 * whose type is in {@code types}, as Envoy does when it loads a typed config, and reports unknown fields.
 */
final class Walker {

  private final Map<String, Descriptor> types;
  private final Findings findings;
  private final ScalarRules scalars;
  private final TimeRules times;

  Walker(Map<String, Descriptor> types, Findings findings) {
    this.types = types;
    this.findings = findings;
    this.scalars = new ScalarRules(findings);
    this.times = new TimeRules(findings);
  }

  void message(String path, Message message) {
    Descriptor type = message.getDescriptorForType();
    if (type.getFullName().equals(Any.getDescriptor().getFullName())) {
      anyPayload(path, message);
      return;
    }
    if (!message.getUnknownFields().asMap().isEmpty()) {
      findings.violation(path, "checker.no_unknown_fields",
          "field numbers " + message.getUnknownFields().asMap().keySet());
    }
    if (PgvOptions.messageDisabled(type.getOptions())) {
      return;
    }
    for (OneofDescriptor oneof : type.getRealOneofs()) {
      if (PgvOptions.oneofRequired(oneof.getOptions()) && !message.hasOneof(oneof)) {
        findings.violation(join(path, oneof.getName()), "oneof.required",
            "none of " + oneof.getFields().stream().map(FieldDescriptor::getName).toList());
      }
    }
    for (FieldDescriptor field : type.getFields()) {
      OneofDescriptor oneof = field.getContainingOneof();
      if (oneof == null || message.getOneofFieldDescriptor(oneof) == field) {
        field(join(path, field.getName()), message, field);
      }
    }
  }

  private void field(String path, Message message, FieldDescriptor field) {
    FieldRules rules = PgvOptions.fieldRules(field.getOptions());
    if (field.isMapField()) {
      map(path, message, field, rules);
    } else if (field.isRepeated()) {
      repeated(path, message, field, rules);
    } else {
      boolean present = field.getJavaType() != FieldDescriptor.JavaType.MESSAGE || message.hasField(field);
      value(path, field, present, message.getField(field), rules);
    }
  }

  private void repeated(String path, Message message, FieldDescriptor field, FieldRules rules) {
    if (!expect(path, field, rules, FieldRules.TypeCase.REPEATED)) {
      return;
    }
    RepeatedRules repeated = rules.getRepeated();
    findings.account("repeated", repeated);
    int count = message.getRepeatedFieldCount(field);
    if (repeated.getIgnoreEmpty() && count == 0) {
      return;
    }
    check(path, repeated.hasMinItems() && count < repeated.getMinItems(),
        "repeated.min_items " + repeated.getMinItems(), count + " items");
    check(path, repeated.hasMaxItems() && count > repeated.getMaxItems(),
        "repeated.max_items " + repeated.getMaxItems(), count + " items");
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < count; i++) {
      Object item = message.getRepeatedField(field, i);
      String itemPath = path + "[" + i + "]";
      Object identity = item instanceof EnumValueDescriptor e ? e.getNumber() : item;
      check(itemPath, repeated.getUnique() && !seen.add(identity), "repeated.unique", Findings.show(item));
      value(itemPath, field, true, item, repeated.getItems());
    }
  }

  private void map(String path, Message message, FieldDescriptor field, FieldRules rules) {
    if (!expect(path, field, rules, FieldRules.TypeCase.MAP)) {
      return;
    }
    MapRules map = rules.getMap();
    findings.account("map", map);
    int count = message.getRepeatedFieldCount(field);
    if (map.getIgnoreEmpty() && count == 0) {
      return;
    }
    check(path, map.hasMinPairs() && count < map.getMinPairs(), "map.min_pairs " + map.getMinPairs(), count + " pairs");
    check(path, map.hasMaxPairs() && count > map.getMaxPairs(), "map.max_pairs " + map.getMaxPairs(), count + " pairs");
    FieldDescriptor keyField = field.getMessageType().findFieldByName("key");
    FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
    for (int i = 0; i < count; i++) {
      Message entry = (Message) message.getRepeatedField(field, i);
      Object key = entry.getField(keyField);
      String entryPath = path + "[" + key + "]";
      value(entryPath + "(key)", keyField, true, key, map.getKeys());
      boolean present = valueField.getJavaType() != FieldDescriptor.JavaType.MESSAGE || entry.hasField(valueField);
      value(entryPath, valueField, present, entry.getField(valueField), map.getValues());
    }
  }

  /** One singular value, element or map key/value; {@code present} matters for messages only. */
  private void value(String path, FieldDescriptor field, boolean present, Object value, FieldRules rules) {
    if (field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
      scalar(path, field, value, rules);
      return;
    }
    MessageRules messageRules = rules.getMessage();
    check(path, messageRules.getRequired() && !present, "message.required", "unset");
    Message message = (Message) value;
    String type = field.getMessageType().getFullName();
    switch (rules.getTypeCase()) {
      case TYPE_NOT_SET -> {
      }
      case DURATION -> {
        if (expect(path, type, Duration.getDescriptor(), rules)) {
          Duration duration = present ? reparse(message, Duration.class, Duration.parser()) : null;
          times.duration(path, duration, rules.getDuration());
        }
        return;
      }
      case TIMESTAMP -> {
        if (expect(path, type, Timestamp.getDescriptor(), rules)) {
          Timestamp timestamp = present ? reparse(message, Timestamp.class, Timestamp.parser()) : null;
          times.timestamp(path, timestamp, rules.getTimestamp());
        }
        return;
      }
      case ANY -> {
        if (!expect(path, type, Any.getDescriptor(), rules)) {
          return;
        }
        times.any(path, present ? reparse(message, Any.class, Any.parser()) : null, rules.getAny());
      }
      default -> {
        // Scalar rules on a wrapper (google.protobuf.UInt32Value and kin) apply to its value when it is set.
        FieldDescriptor wrapped = type.startsWith("google.protobuf.") && type.endsWith("Value")
            ? field.getMessageType().findFieldByName("value") : null;
        if (wrapped == null) {
          mismatch(path, field, rules);
        } else if (present) {
          scalar(path, wrapped, message.getField(wrapped), rules);
        }
        return;
      }
    }
    if (present && !messageRules.getSkip()) {
      message(path, message);
    }
  }

  private void scalar(String path, FieldDescriptor field, Object value, FieldRules rules) {
    FieldRules.TypeCase kind = rules.getTypeCase();
    if (kind == FieldRules.TypeCase.TYPE_NOT_SET) {
      return;
    }
    String rulesType = FieldRules.getDescriptor().findFieldByNumber(kind.getNumber()).getName();
    if (!rulesType.equals(field.getType().name().toLowerCase(Locale.ROOT))) {
      mismatch(path, field, rules);
      return;
    }
    switch (kind) {
      case STRING -> scalars.string(path, (String) value, rules.getString());
      case BYTES -> scalars.bytes(path, (ByteString) value, rules.getBytes());
      case BOOL -> scalars.bool(path, (Boolean) value, rules.getBool());
      case ENUM -> scalars.enumeration(path, field, (EnumValueDescriptor) value, rules.getEnum());
      default -> scalars.number(path, rulesType, field, value, (Message) rules.getField(
          FieldRules.getDescriptor().findFieldByNumber(kind.getNumber())));
    }
  }

  private void anyPayload(String path, Message any) {
    Any packed = reparse(any, Any.class, Any.parser());
    String url = packed.getTypeUrl();
    Descriptor type = types.get(url.substring(url.lastIndexOf('/') + 1));
    if (url.isEmpty() && packed.getValue().isEmpty() && path.endsWith("(FilterConfig).config")) {
      return; // Envoy's way to turn on, for a route, a filter that is off by default (HttpFilter.disabled)
    }
    if (type == null) {
      findings.violation(path, "checker.known_any_type", url.isEmpty() ? "no type_url" : url);
      return;
    }
    try {
      message(path + "(" + type.getName() + ")", DynamicMessage.parseFrom(type, packed.getValue()));
    } catch (InvalidProtocolBufferException e) {
      findings.violation(path, "checker.parsable_any", url + ": " + e.getMessage());
    }
  }

  private boolean expect(String path, FieldDescriptor field, FieldRules rules, FieldRules.TypeCase container) {
    if (rules.getTypeCase() == container || rules.getTypeCase() == FieldRules.TypeCase.TYPE_NOT_SET) {
      return true;
    }
    mismatch(path, field, rules);
    return false;
  }

  private boolean expect(String path, String type, Descriptor wanted, FieldRules rules) {
    if (type.equals(wanted.getFullName())) {
      return true;
    }
    findings.violation(path, "checker.rules_fit_type", rules.getTypeCase() + " rules on " + type);
    return false;
  }

  private void mismatch(String path, FieldDescriptor field, FieldRules rules) {
    String type = field.getJavaType() == FieldDescriptor.JavaType.MESSAGE ? field.getMessageType().getFullName()
        : field.getType().name().toLowerCase(Locale.ROOT);
    findings.violation(path, "checker.rules_fit_type", rules.getTypeCase() + " rules on "
        + (field.isRepeated() ? "repeated " : "") + type);
  }

  private void check(String path, boolean broken, String rule, String actual) {
    if (broken) {
      findings.violation(path, rule, actual);
    }
  }

  /** A generated message of the well-known type, whether {@code message} is one or a DynamicMessage copy. */
  private static <T extends Message> T reparse(Message message, Class<T> type, Parser<T> parser) {
    if (type.isInstance(message)) {
      return type.cast(message);
    }
    try {
      return parser.parseFrom(message.toByteString());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(message.getDescriptorForType().getFullName() + " does not reparse", e);
    }
  }

  static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
