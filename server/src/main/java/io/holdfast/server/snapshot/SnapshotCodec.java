package io.holdfast.server.snapshot;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnsafeByteOperations;
import io.holdfast.api.ResourceKey;
import io.holdfast.xds.snapshot.ProxyScopes;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * The snapshot file format, version 3 (versions 1 and 2 are still read). All integers are big-endian; strings and
 * blobs are an int32 length then the bytes (strings in UTF-8).
 *
 * <pre>
 * header   magic "HFSNAP\r\n" (8 bytes) | format version int32 | payload length int32
 * payload  savedAt epoch-second int64, nano int32 | savedBy string | version string | type count int32, then
 *          per type: type URL string | resource count int32, then per resource: name string | google.protobuf.Any
 *          version 2 only: first-served count int32, then per object: group string | kind string |
 *          namespace string | name string | epoch-second int64 | nano int32
 *          version 3 only: scopes known int32 (0 or 1) | proxy count int32, then per proxy: proxy name string |
 *          type count int32, then per type: type URL string | name count int32, then the names as strings
 * trailer  CRC32C of header and payload, int32
 * </pre>
 *
 * Version 2 adds the first-served times of file mode's objects ({@link StoredSnapshot#firstServed}); a version 1
 * file reads with none. Version 3 adds the proxies' scopes ({@link ProxyScopes}), so a restart from the file serves
 * each proxy the same view; a version 1 or 2 file reads with {@link ProxyScopes#UNKNOWN}, which the xDS server
 * serves whole under authorisation {@code none} and to no proxy under {@code proxy-identity} (until the first
 * build from the config source replaces it).
 *
 * Types are kept as groups (not a flat list of Any) so a type present with no resources survives the round
 * trip: it is part of the snapshot's content version. The format version is checked before the checksum so a
 * file from a newer build is reported as such, not as corrupt.
 */
final class SnapshotCodec {
    static final int FORMAT_VERSION = 3;
    /** The first format, without first-served times: still read. */
    static final int FORMAT_VERSION_1 = 1;
    /** The second format, without scopes: still read. */
    static final int FORMAT_VERSION_2 = 2;
    static final int HEADER_BYTES = 16;
    static final int CHECKSUM_BYTES = 4;
    /** Far above any real config; bounds what a corrupt length field can make us allocate. */
    static final int MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;
    private static final byte[] MAGIC = {'H', 'F', 'S', 'N', 'A', 'P', '\r', '\n'};

    private SnapshotCodec() {}

    /**
     * @throws IllegalArgumentException if the encoded payload would exceed {@link #MAX_PAYLOAD_BYTES}
     */
    static byte[] encode(StoredSnapshot stored) {
        var payload = new ByteArrayOutputStream();
        try (var out = new DataOutputStream(payload)) {
            out.writeLong(stored.savedAt().getEpochSecond());
            out.writeInt(stored.savedAt().getNano());
            writeBlob(out, ByteString.copyFromUtf8(stored.savedBy()));
            writeBlob(out, ByteString.copyFromUtf8(stored.snapshot().version()));
            out.writeInt(stored.snapshot().resources().size());
            for (Map.Entry<String, SortedMap<String, Message>> type : stored.snapshot().resources().entrySet()) {
                writeBlob(out, ByteString.copyFromUtf8(type.getKey()));
                out.writeInt(type.getValue().size());
                for (Map.Entry<String, Message> named : type.getValue().entrySet()) {
                    writeBlob(out, ByteString.copyFromUtf8(named.getKey()));
                    Any any = Any.newBuilder().setTypeUrl(type.getKey()).setValue(deterministic(named.getValue())).build();
                    writeBlob(out, any.toByteString());
                }
            }
            out.writeInt(stored.firstServed().size());
            for (Map.Entry<ResourceKey, Instant> entry : stored.firstServed().entrySet()) {
                ResourceKey key = entry.getKey();
                for (String part : new String[] {key.group(), key.kind(), key.namespace(), key.name()}) {
                    writeBlob(out, ByteString.copyFromUtf8(part));
                }
                out.writeLong(entry.getValue().getEpochSecond());
                out.writeInt(entry.getValue().getNano());
            }
            ProxyScopes scopes = stored.snapshot().scopes();
            out.writeInt(scopes.known() ? 1 : 0);
            out.writeInt(scopes.byProxy().size());
            for (Map.Entry<String, ProxyScopes.Scope> proxy : scopes.byProxy().entrySet()) {
                writeBlob(out, ByteString.copyFromUtf8(proxy.getKey()));
                out.writeInt(proxy.getValue().names().size());
                for (Map.Entry<String, SortedSet<String>> type : proxy.getValue().names().entrySet()) {
                    writeBlob(out, ByteString.copyFromUtf8(type.getKey()));
                    out.writeInt(type.getValue().size());
                    for (String name : type.getValue()) {
                        writeBlob(out, ByteString.copyFromUtf8(name));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory stream: cannot happen
        }
        if (payload.size() > MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("snapshot encodes to " + payload.size() + " bytes, above the limit of "
                    + MAX_PAYLOAD_BYTES);
        }
        ByteBuffer file = ByteBuffer.allocate(HEADER_BYTES + payload.size() + CHECKSUM_BYTES);
        file.put(MAGIC).putInt(FORMAT_VERSION).putInt(payload.size()).put(payload.toByteArray());
        var crc = new CRC32C();
        crc.update(file.array(), 0, file.position());
        file.putInt((int) crc.getValue());
        return file.array();
    }

    static StoredSnapshot decode(byte[] file) throws SnapshotFormatException {
        if (file.length == 0) {
            throw new SnapshotFormatException("empty file");
        }
        int magicSeen = Math.min(file.length, MAGIC.length);
        if (!Arrays.equals(file, 0, magicSeen, MAGIC, 0, magicSeen)) {
            throw new SnapshotFormatException("not a Holdfast snapshot file (wrong magic)");
        }
        if (file.length < HEADER_BYTES) {
            throw new SnapshotFormatException("truncated at byte " + file.length + " (the header needs " + HEADER_BYTES + ")");
        }
        ByteBuffer in = ByteBuffer.wrap(file);
        int format = in.getInt(MAGIC.length);
        if (format < FORMAT_VERSION_1 || format > FORMAT_VERSION) {
            throw new SnapshotFormatException("unsupported format version " + format + " (this build reads "
                    + FORMAT_VERSION_1 + " to " + FORMAT_VERSION + ")");
        }
        int payloadLength = in.getInt(MAGIC.length + 4);
        if (payloadLength < 0 || payloadLength > MAX_PAYLOAD_BYTES) {
            throw new SnapshotFormatException("invalid payload length " + payloadLength);
        }
        long expected = (long) HEADER_BYTES + payloadLength + CHECKSUM_BYTES;
        if (file.length < expected) {
            throw new SnapshotFormatException("truncated at byte " + file.length + " (expected " + expected + " bytes)");
        }
        if (file.length > expected) {
            throw new SnapshotFormatException((file.length - expected) + " unexpected bytes after the checksum");
        }
        var crc = new CRC32C();
        crc.update(file, 0, HEADER_BYTES + payloadLength);
        int stored = in.getInt(HEADER_BYTES + payloadLength);
        if (stored != (int) crc.getValue()) {
            throw new SnapshotFormatException(String.format("checksum mismatch (stored %08x, computed %08x)",
                    stored, (int) crc.getValue()));
        }
        return decodePayload(new PayloadReader(file, HEADER_BYTES, payloadLength), format);
    }

    private static StoredSnapshot decodePayload(PayloadReader in, int format) throws SnapshotFormatException {
        long epochSecond = in.int64("savedAt");
        int nano = in.int32("savedAt");
        Instant savedAt;
        try {
            savedAt = Instant.ofEpochSecond(epochSecond, nano);
        } catch (DateTimeException e) {
            throw in.malformed("savedAt out of range");
        }
        String savedBy = in.string("savedBy");
        String version = in.string("version");
        int typeCount = in.count("type count");
        TreeMap<String, SortedMap<String, Message>> resources = new TreeMap<>();
        for (int t = 0; t < typeCount; t++) {
            String typeUrl = in.string("type URL");
            if (!ResourceTypes.isKnown(typeUrl)) {
                throw new SnapshotFormatException("unknown resource type " + typeUrl);
            }
            int count = in.count("resource count");
            TreeMap<String, Message> byName = new TreeMap<>();
            for (int r = 0; r < count; r++) {
                String name = in.string("resource name");
                Any any = parseAny(in.blob("resource " + name), typeUrl, name);
                if (!any.getTypeUrl().equals(typeUrl)) {
                    throw new SnapshotFormatException("resource " + name + " has type " + any.getTypeUrl()
                            + " inside the group for " + typeUrl);
                }
                if (byName.put(name, ResourceTypes.parse(typeUrl, any.getValue())) != null) {
                    throw in.malformed("duplicate resource " + typeUrl + " " + name);
                }
            }
            if (resources.put(typeUrl, byName) != null) {
                throw in.malformed("duplicate type " + typeUrl);
            }
        }
        TreeMap<ResourceKey, Instant> firstServed = new TreeMap<>();
        if (format >= FORMAT_VERSION_2) {
            int count = in.count("first-served count");
            for (int i = 0; i < count; i++) {
                ResourceKey key = new ResourceKey(in.string("group"), in.string("kind"), in.string("namespace"),
                        in.string("name"));
                long second = in.int64("first-served time");
                int nanos = in.int32("first-served time");
                try {
                    if (firstServed.put(key, Instant.ofEpochSecond(second, nanos)) != null) {
                        throw in.malformed("duplicate first-served object " + key);
                    }
                } catch (DateTimeException e) {
                    throw in.malformed("first-served time of " + key + " out of range");
                }
            }
        }
        ProxyScopes scopes = format >= FORMAT_VERSION ? scopes(in) : ProxyScopes.UNKNOWN;
        in.expectEnd();
        return new StoredSnapshot(new XdsSnapshot(version, resources, scopes), savedAt, savedBy, firstServed);
    }

    private static ProxyScopes scopes(PayloadReader in) throws SnapshotFormatException {
        int known = in.int32("scopes known");
        if (known != 0 && known != 1) {
            throw in.malformed("scopes known is " + known + ", not 0 or 1");
        }
        int proxies = in.count("proxy count");
        if (known == 0) {
            if (proxies != 0) {
                throw in.malformed("unknown scopes list " + proxies + " proxies");
            }
            return ProxyScopes.UNKNOWN;
        }
        TreeMap<String, ProxyScopes.Scope> byProxy = new TreeMap<>();
        for (int p = 0; p < proxies; p++) {
            String proxy = in.string("proxy name");
            int types = in.count("scope type count");
            TreeMap<String, SortedSet<String>> names = new TreeMap<>();
            for (int t = 0; t < types; t++) {
                String typeUrl = in.string("scope type URL");
                int count = in.count("scope name count");
                TreeSet<String> ofType = new TreeSet<>();
                for (int n = 0; n < count; n++) {
                    ofType.add(in.string("scope name"));
                }
                if (names.put(typeUrl, ofType) != null) {
                    throw in.malformed("duplicate scope type " + typeUrl + " of proxy " + proxy);
                }
            }
            if (byProxy.put(proxy, new ProxyScopes.Scope(names)) != null) {
                throw in.malformed("duplicate scope of proxy " + proxy);
            }
        }
        return ProxyScopes.of(byProxy);
    }

    private static Any parseAny(ByteString bytes, String typeUrl, String name) throws SnapshotFormatException {
        try {
            return Any.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new SnapshotFormatException("malformed resource " + typeUrl + " " + name + ": " + e.getMessage());
        }
    }

    private static void writeBlob(DataOutputStream out, ByteString bytes) throws IOException {
        out.writeInt(bytes.size());
        bytes.writeTo(out);
    }

    /** Deterministic bytes, so saving equal content twice writes identical files. */
    private static ByteString deterministic(Message message) {
        byte[] bytes = new byte[message.getSerializedSize()];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.useDeterministicSerialization();
        try {
            message.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // fixed-size array sized by getSerializedSize: cannot happen
        }
        out.checkNoSpaceLeft();
        return UnsafeByteOperations.unsafeWrap(bytes);
    }
}
