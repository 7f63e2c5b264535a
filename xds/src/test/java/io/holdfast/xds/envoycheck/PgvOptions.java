package io.holdfast.xds.envoycheck;

import com.google.protobuf.DescriptorProtos.FieldOptions;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofOptions;
import com.google.protobuf.Extension;
import com.google.protobuf.ExtensionRegistry;
import com.google.protobuf.GeneratedMessageV3.ExtendableMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import io.envoyproxy.pgv.validate.Validate;
import io.envoyproxy.pgv.validate.Validate.FieldRules;

/**
 * Reads the PGV annotations from descriptor options. Generated Envoy classes register {@link Validate} when
 * they build their descriptors, so the extensions are normally parsed already; a descriptor built without that
 * registry (e.g. from serialized FileDescriptorProtos) keeps them as unknown field 1071/1072, which is re-parsed
 * here so such rules are enforced instead of silently reading as "no rules".
 */
final class PgvOptions {

  private static final ExtensionRegistry REGISTRY = registry();

  private PgvOptions() {
  }

  static FieldRules fieldRules(FieldOptions options) {
    return read(options, Validate.rules, FieldOptions.parser());
  }

  static boolean oneofRequired(OneofOptions options) {
    return read(options, Validate.required, OneofOptions.parser());
  }

  /** {@code validate.disabled} or {@code validate.ignored}: PGV generates no checks for the message. */
  static boolean messageDisabled(MessageOptions options) {
    return read(options, Validate.disabled, MessageOptions.parser())
        || read(options, Validate.ignored, MessageOptions.parser());
  }

  private static <O extends ExtendableMessage<O>, T> T read(O options, Extension<O, T> extension,
      Parser<O> parser) {
    if (options.hasExtension(extension)) {
      return options.getExtension(extension);
    }
    if (!options.getUnknownFields().hasField(extension.getNumber())) {
      return options.getExtension(extension);
    }
    try {
      return parser.parseFrom(options.toByteString(), REGISTRY).getExtension(extension);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("unreadable validate option " + extension.getDescriptor().getFullName(), e);
    }
  }

  private static ExtensionRegistry registry() {
    ExtensionRegistry registry = ExtensionRegistry.newInstance();
    Validate.registerAllExtensions(registry);
    return registry;
  }
}
