package io.holdfast.server.snapshot;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked reads of a snapshot payload whose checksum already matched, so a failure here means a writer
 * bug or a crafted file; errors name the field and the absolute byte offset.
 */
final class PayloadReader {
    private final ByteBuffer buffer;
    private final int base;

    PayloadReader(byte[] file, int offset, int length) {
        this.buffer = ByteBuffer.wrap(file, offset, length).slice();
        this.base = offset;
    }

    long int64(String field) throws SnapshotFormatException {
        need(Long.BYTES, field);
        return buffer.getLong();
    }

    int int32(String field) throws SnapshotFormatException {
        need(Integer.BYTES, field);
        return buffer.getInt();
    }

    /** A non-negative element count. Each element takes at least 4 bytes, so a huge count fails fast on its own. */
    int count(String field) throws SnapshotFormatException {
        int count = int32(field);
        if (count < 0) {
            throw malformed("negative " + field + " " + count);
        }
        return count;
    }

    ByteString blob(String field) throws SnapshotFormatException {
        int length = int32(field + " length");
        if (length < 0) {
            throw malformed("negative " + field + " length " + length);
        }
        need(length, field);
        return ByteString.copyFrom(buffer, length);
    }

    String string(String field) throws SnapshotFormatException {
        ByteString bytes = blob(field);
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(bytes.asReadOnlyByteBuffer()).toString();
        } catch (CharacterCodingException e) {
            throw malformed(field + " is not valid UTF-8");
        }
    }

    void expectEnd() throws SnapshotFormatException {
        if (buffer.hasRemaining()) {
            throw malformed(buffer.remaining() + " unread bytes at the end");
        }
    }

    SnapshotFormatException malformed(String what) {
        return new SnapshotFormatException("malformed payload: " + what + " at byte " + (base + buffer.position()));
    }

    private void need(int bytes, String field) throws SnapshotFormatException {
        if (buffer.remaining() < bytes) {
            throw malformed(field + " runs past the end of the payload");
        }
    }
}
