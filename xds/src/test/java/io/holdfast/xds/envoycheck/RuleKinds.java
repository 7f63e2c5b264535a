package io.holdfast.xds.envoycheck;

import com.google.protobuf.Descriptors.FieldDescriptor;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Names every PGV rule kind as {@code <rules type>.<rule>} (e.g. {@code string.min_len}, {@code uint32.gte}),
 * plus {@code oneof.required} and {@code message_options.disabled}/{@code ignored}, and says which the checker
 * enforces. {@link #all} is read from validate.proto's own descriptors, so a rule added to PGV shows up as
 * unenforced instead of being skipped.
 */
final class RuleKinds {

  private static final Set<String> NUMBER_TYPES = Set.of("float", "double", "int32", "int64", "uint32", "uint64",
      "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64");

  private static final Set<String> ENFORCED = Stream.of(
          Stream.of("oneof.required", "message_options.disabled", "message_options.ignored",
              "message.required", "message.skip", "bool.const"),
          NUMBER_TYPES.stream().flatMap(type -> Stream.of("const", "lt", "lte", "gt", "gte", "in", "not_in",
              "ignore_empty").map(rule -> type + "." + rule)),
          Stream.of("const", "len", "min_len", "max_len", "len_bytes", "min_bytes", "max_bytes", "pattern", "prefix",
              "suffix", "contains", "not_contains", "in", "not_in", "hostname", "ip", "ipv4", "ipv6", "uri",
              "uri_ref", "address", "uuid", "well_known_regex", "strict", "ignore_empty").map(r -> "string." + r),
          Stream.of("const", "len", "min_len", "max_len", "pattern", "prefix", "suffix", "contains", "in", "not_in",
              "ip", "ipv4", "ipv6", "ignore_empty").map(r -> "bytes." + r),
          Stream.of("const", "defined_only", "in", "not_in").map(r -> "enum." + r),
          Stream.of("min_items", "max_items", "unique", "items", "ignore_empty").map(r -> "repeated." + r),
          Stream.of("min_pairs", "max_pairs", "keys", "values", "ignore_empty").map(r -> "map." + r),
          Stream.of("required", "in", "not_in").map(r -> "any." + r),
          Stream.of("required", "const", "lt", "lte", "gt", "gte", "in", "not_in").map(r -> "duration." + r),
          Stream.of("required", "const", "lt", "lte", "gt", "gte").map(r -> "timestamp." + r))
      .flatMap(s -> s)
      .collect(Collectors.toUnmodifiableSet());

  private RuleKinds() {
  }

  static boolean enforced(String kind) {
    return ENFORCED.contains(kind);
  }

  static Set<String> enforced() {
    return ENFORCED;
  }

  /** Every rule kind validate.proto defines. */
  static SortedSet<String> all() {
    SortedSet<String> kinds = new TreeSet<>(Set.of("oneof.required", "message_options.disabled",
        "message_options.ignored"));
    for (FieldDescriptor type : FieldRules.getDescriptor().getFields()) {
      type.getMessageType().getFields().forEach(rule -> kinds.add(type.getName() + "." + rule.getName()));
    }
    return kinds;
  }

  /** The rule kinds validate.proto defines that this checker does not evaluate. */
  static SortedSet<String> unenforced() {
    SortedSet<String> kinds = all();
    kinds.removeIf(RuleKinds::enforced);
    return kinds;
  }
}
