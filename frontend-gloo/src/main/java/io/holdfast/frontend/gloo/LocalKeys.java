package io.holdfast.frontend.gloo;

import io.holdfast.api.Reasons;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Gloo local JWKS {@code key} as the JWKS document Holdfast's {@code localJwks.inline} holds. Gloo accepts a key
 * set, a single JSON Web Key, or a PEM public key (it converts the last two to a key set); so does this. PEM keys
 * are RSA or EC (P-256, P-384, P-521) {@code PUBLIC KEY} blocks.
 */
final class LocalKeys {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String PEM_BEGIN = "-----BEGIN PUBLIC KEY-----";
  private static final String PEM_END = "-----END PUBLIC KEY-----";

  private LocalKeys() {
  }

  /** The key set, or empty with an error at {@code at}'s {@code key}. */
  static Optional<String> jwks(String key, Node at) {
    String text = key.strip();
    if (text.startsWith(PEM_BEGIN)) {
      return pem(text, at);
    }
    try {
      JsonNode json = JSON.readTree(text);
      if (json.isObject() && json.has("keys")) {
        return Optional.of(text);
      }
      if (json.isObject() && json.has("kty")) {
        ObjectNode set = JSON.createObjectNode();
        set.putArray("keys").add(json);
        return Optional.of(JSON.writeValueAsString(set));
      }
    } catch (JacksonException e) {
      // neither JSON nor PEM: reported below
    }
    at.error(at.at("key"), Reasons.INVALID_VALUE, "key is a JSON Web Key Set, a JSON Web Key or a PEM public key");
    return Optional.empty();
  }

  private static Optional<String> pem(String text, Node at) {
    int end = text.indexOf(PEM_END);
    if (end < 0) {
      at.error(at.at("key"), Reasons.INVALID_VALUE, "the PEM block has no " + PEM_END);
      return Optional.empty();
    }
    try {
      byte[] der = Base64.getMimeDecoder().decode(text.substring(PEM_BEGIN.length(), end));
      ObjectNode jwk = JSON.createObjectNode();
      PublicKey key = publicKey(der);
      if (key instanceof RSAPublicKey rsa) {
        jwk.put("kty", "RSA").put("n", base64Url(rsa.getModulus())).put("e", base64Url(rsa.getPublicExponent()));
      } else if (key instanceof ECPublicKey ec) {
        int size = (ec.getParams().getCurve().getField().getFieldSize() + 7) / 8;
        String curve = switch (ec.getParams().getCurve().getField().getFieldSize()) {
          case 256 -> "P-256";
          case 384 -> "P-384";
          case 521 -> "P-521";
          default -> throw new GeneralSecurityException("unsupported curve");
        };
        jwk.put("kty", "EC").put("crv", curve).put("x", base64Url(ec.getW().getAffineX(), size))
            .put("y", base64Url(ec.getW().getAffineY(), size));
      }
      ObjectNode set = JSON.createObjectNode();
      set.putArray("keys").add(jwk);
      return Optional.of(JSON.writeValueAsString(set));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      at.error(at.at("key"), Reasons.INVALID_VALUE, "the PEM block is not an RSA or EC (P-256, P-384, P-521)"
          + " public key");
      return Optional.empty();
    }
  }

  private static PublicKey publicKey(byte[] der) throws GeneralSecurityException {
    X509EncodedKeySpec spec = new X509EncodedKeySpec(der);
    try {
      return KeyFactory.getInstance("RSA").generatePublic(spec);
    } catch (GeneralSecurityException notRsa) {
      return KeyFactory.getInstance("EC").generatePublic(spec);
    }
  }

  private static String base64Url(BigInteger value) {
    byte[] bytes = value.toByteArray();
    if (bytes.length > 1 && bytes[0] == 0) {
      bytes = Arrays.copyOfRange(bytes, 1, bytes.length); // the sign byte is not part of the JWK value
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** A coordinate, left-padded to the curve's size as RFC 7518 asks. */
  private static String base64Url(BigInteger value, int size) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[size];
    int copy = Math.min(raw.length, size);
    System.arraycopy(raw, raw.length - copy, out, size - copy, copy);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
  }
}
