package io.holdfast.server.snapshot;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.GenericSecret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Keeps private keys and credentials out of the snapshot file in clear text. SDS {@code Secret} resources are the
 * only ones that carry key material or credentials (TLS keys; generic secrets such as OAuth2 client secrets and HMAC
 * keys), and they are stored one of two ways:
 * <ul>
 *   <li>with a snapshot key ({@code --snapshot-key-file}): each Secret is sealed with AES-256-GCM (a fresh 96-bit
 *       nonce per resource, the resource name as associated data, so a sealed Secret cannot be moved to another
 *       name) and stored as a Secret of the same name holding only {@code generic_secret} with the nonce and
 *       ciphertext. Every stored Secret is sealed (a generic secret of Holdfast's own included: the
 *       whole resource is the plaintext), so loading opens each one; it unseals them and the snapshot keeps its
 *       version.</li>
 *   <li>without a key: Secrets are left out, and the stored snapshot's version is the hash of what is stored. A
 *       replica restarted from it serves everything else at once; TLS listeners then wait (Envoy warms them) until
 *       the config source is back and the Secrets arrive.</li>
 * </ul>
 * A sealed Secret that does not open (another key, tampering) is dropped like an unsealed one, with the reason
 * returned for the log. Stateless apart from its random source.
 */
final class SecretSealing {

  static final String SECRET = Resources.V3.SECRET_TYPE_URL;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final Optional<SecretKey> key;
  private final SecureRandom random;

  SecretSealing(Optional<SecretKey> key, SecureRandom random) {
    this.key = key;
    this.random = random;
  }

  /** What to write: {@code snapshot} with its Secrets sealed, or without them. */
  XdsSnapshot forStorage(XdsSnapshot snapshot) {
    SortedMap<String, Message> secrets = snapshot.ofType(SECRET);
    if (secrets.isEmpty()) {
      return snapshot;
    }
    if (key.isEmpty()) {
      return XdsSnapshot.of(without(snapshot, SECRET), snapshot.scopes());
    }
    TreeMap<String, SortedMap<String, Message>> resources = new TreeMap<>(snapshot.resources());
    TreeMap<String, Message> sealed = new TreeMap<>();
    secrets.forEach((name, secret) -> sealed.put(name, seal(name, (Secret) secret)));
    resources.put(SECRET, sealed);
    return new XdsSnapshot(snapshot.version(), resources, snapshot.scopes());
  }

  /** What was written, made servable: Secrets unsealed, or dropped (with the reason) if they cannot be. */
  Loaded fromStorage(XdsSnapshot stored) {
    SortedMap<String, Message> secrets = stored.ofType(SECRET);
    if (secrets.isEmpty()) {
      return new Loaded(stored, Optional.empty());
    }
    if (key.isEmpty()) {
      return dropped(stored, "the file holds sealed secrets but no --snapshot-key-file is set");
    }
    TreeMap<String, Message> opened = new TreeMap<>();
    for (Map.Entry<String, Message> entry : secrets.entrySet()) {
      Optional<Secret> secret = open(entry.getKey(), (Secret) entry.getValue());
      if (secret.isEmpty()) {
        return dropped(stored, "secret " + entry.getKey() + " does not open with this --snapshot-key-file "
            + "(another key, or the file was altered)");
      }
      opened.put(entry.getKey(), secret.get());
    }
    TreeMap<String, SortedMap<String, Message>> resources = new TreeMap<>(stored.resources());
    resources.put(SECRET, opened);
    return new Loaded(new XdsSnapshot(stored.version(), resources, stored.scopes()), Optional.empty());
  }

  /** A loaded snapshot and, if its Secrets were dropped, why. */
  record Loaded(XdsSnapshot snapshot, Optional<String> secretsDropped) {
  }

  private static Loaded dropped(XdsSnapshot stored, String why) {
    return new Loaded(XdsSnapshot.of(without(stored, SECRET), stored.scopes()), Optional.of(why));
  }

  private static Map<String, SortedMap<String, Message>> without(XdsSnapshot snapshot, String type) {
    TreeMap<String, SortedMap<String, Message>> rest = new TreeMap<>(snapshot.resources());
    rest.remove(type);
    return rest;
  }

  private Secret seal(String name, Secret secret) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key.orElseThrow(), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
      byte[] sealed = cipher.doFinal(secret.toByteArray());
      byte[] stored = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
      return Secret.newBuilder().setName(name).setGenericSecret(GenericSecret.newBuilder()
          .setSecret(DataSource.newBuilder().setInlineBytes(ByteString.copyFrom(stored)))).build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is required by every Java platform", e);
    }
  }

  private Optional<Secret> open(String name, Secret sealed) {
    byte[] stored = sealed.getGenericSecret().getSecret().getInlineBytes().toByteArray();
    if (!sealed.hasGenericSecret() || stored.length <= NONCE_BYTES) {
      return Optional.empty();
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key.orElseThrow(), new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
      cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
      Secret secret = Secret.parseFrom(cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES));
      return secret.getName().equals(name) ? Optional.of(secret) : Optional.empty();
    } catch (GeneralSecurityException | InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }
}
