package io.holdfast.server.snapshot;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.ByteString;
import com.google.protobuf.Parser;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The type registry for stored resources: exactly the five Envoy v3 types Holdfast serves (Secrets only as
 * {@link SecretSealing} stores them). Anything else in a
 * file means it was written by a different build, so it is refused rather than guessed at.
 */
final class ResourceTypes {
    private static final String TYPE_URL_PREFIX = "type.googleapis.com/";
    private static final Map<String, Message> DEFAULTS = Stream.<Message>of(
                    Listener.getDefaultInstance(),
                    RouteConfiguration.getDefaultInstance(),
                    Cluster.getDefaultInstance(),
                    ClusterLoadAssignment.getDefaultInstance(),
                    io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret.getDefaultInstance())
            .collect(Collectors.toUnmodifiableMap(ResourceTypes::typeUrl, Function.identity()));

    private ResourceTypes() {}

    /** The {@code google.protobuf.Any} type URL of a message, as xDS uses it. */
    static String typeUrl(Message message) {
        return TYPE_URL_PREFIX + message.getDescriptorForType().getFullName();
    }

    static boolean isKnown(String typeUrl) {
        return DEFAULTS.containsKey(typeUrl);
    }

    /** Why {@code snapshot} cannot be stored, if it cannot: an unknown type, or a message filed under another type. */
    static Optional<String> unsupported(XdsSnapshot snapshot) {
        for (Map.Entry<String, SortedMap<String, Message>> type : snapshot.resources().entrySet()) {
            if (!isKnown(type.getKey())) {
                return Optional.of("unknown resource type " + type.getKey());
            }
            for (Map.Entry<String, Message> named : type.getValue().entrySet()) {
                String actual = typeUrl(named.getValue());
                if (!actual.equals(type.getKey())) {
                    return Optional.of("resource " + named.getKey() + " under " + type.getKey() + " is a " + actual);
                }
            }
        }
        return Optional.empty();
    }

    /** Parses {@code bytes} as the concrete message for {@code typeUrl}. */
    static Message parse(String typeUrl, ByteString bytes) throws SnapshotFormatException {
        Message prototype = DEFAULTS.get(typeUrl);
        if (prototype == null) {
            throw new SnapshotFormatException("unknown resource type " + typeUrl);
        }
        Parser<? extends Message> parser = prototype.getParserForType();
        try {
            return parser.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new SnapshotFormatException("malformed " + typeUrl + ": " + e.getMessage());
        }
    }
}
