package io.holdfast.xds.envoycheck;

import static io.holdfast.xds.envoycheck.RuleAssertions.accepts;
import static io.holdfast.xds.envoycheck.RuleAssertions.rejects;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import io.envoyproxy.pgv.validate.Validate.BytesRules;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import io.envoyproxy.pgv.validate.Validate.KnownRegex;
import io.envoyproxy.pgv.validate.Validate.StringRules;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class StringAndBytesRulesTest {

  private static Probe string(UnaryOperator<StringRules.Builder> rules) {
    return Probe.scalar(Type.TYPE_STRING,
        FieldRules.newBuilder().setString(rules.apply(StringRules.newBuilder())).build());
  }

  private static Probe bytes(UnaryOperator<BytesRules.Builder> rules) {
    return Probe.scalar(Type.TYPE_BYTES,
        FieldRules.newBuilder().setBytes(rules.apply(BytesRules.newBuilder())).build());
  }

  @Test
  void lengthsCountCharactersOrBytes() {
    // "é" is one character, two UTF-8 bytes.
    rejects(string(r -> r.setMinLen(1)), "", "string.min_len 1");
    accepts(string(r -> r.setMinLen(2)), "éé", "ab");
    rejects(string(r -> r.setMaxLen(2)), "abc", "string.max_len 2");
    accepts(string(r -> r.setMaxLen(2)), "éé");
    rejects(string(r -> r.setLen(2)), "a", "string.len 2");
    accepts(string(r -> r.setLen(2)), "éa");
    rejects(string(r -> r.setMaxBytes(3)), "éé", "string.max_bytes 3");
    rejects(string(r -> r.setMinBytes(3)), "é", "string.min_bytes 3");
    accepts(string(r -> r.setMinBytes(3)), "éa");
    rejects(string(r -> r.setLenBytes(2)), "ab ", "string.len_bytes 2");
    accepts(string(r -> r.setLenBytes(2)), "é");
  }

  @Test
  void contentRules() {
    rejects(string(r -> r.setConst("x")), "y", "string.const \"x\"");
    accepts(string(r -> r.setConst("x")), "x");
    rejects(string(r -> r.setPrefix("/")), "a/", "string.prefix \"/\"");
    rejects(string(r -> r.setSuffix("%")), "%a", "string.suffix \"%\"");
    rejects(string(r -> r.setContains("::")), "a:b", "string.contains \"::\"");
    rejects(string(r -> r.setNotContains("..")), "a..b", "string.not_contains \"..\"");
    accepts(string(r -> r.setPrefix("/").setSuffix("/").setContains("x").setNotContains("..")), "/x/");
    rejects(string(r -> r.addIn("http").addIn("https")), "ftp", "string.in [http, https]");
    accepts(string(r -> r.addIn("http").addIn("https")), "https");
    rejects(string(r -> r.addNotIn("bad")), "bad", "string.not_in [bad]");
    accepts(string(r -> r.addNotIn("bad")), "good");
  }

  @Test
  void patternMustMatchTheWholeValueLikeEnvoysRe2FullMatch() {
    Probe noSlashEnd = string(r -> r.setPattern("[^?#]+[^?#/]"));
    accepts(noSlashEnd, "/api");
    rejects(noSlashEnd, "/api/", "string.pattern \"[^?#]+[^?#/]\"");
    rejects(string(r -> r.setPattern("b")), "abc", "string.pattern \"b\"");
  }

  @Test
  void wellKnownHeaderRegexesStrictAndLax() {
    Probe strictName = string(r -> r.setWellKnownRegex(KnownRegex.HTTP_HEADER_NAME));
    accepts(strictName, "x-request-id", ":authority");
    rejects(strictName, "x request", "string.well_known_regex HTTP_HEADER_NAME");
    rejects(strictName, "", "string.well_known_regex HTTP_HEADER_NAME");
    Probe laxName = string(r -> r.setWellKnownRegex(KnownRegex.HTTP_HEADER_NAME).setStrict(false));
    accepts(laxName, "x request", "");
    rejects(laxName, "x-a\nx-b", "string.well_known_regex HTTP_HEADER_NAME strict false");
    rejects(laxName, "a\u0000", "string.well_known_regex HTTP_HEADER_NAME strict false");
    Probe strictValue = string(r -> r.setWellKnownRegex(KnownRegex.HTTP_HEADER_VALUE));
    accepts(strictValue, "text/html; q=0.9\t", "");
    rejects(strictValue, "a\u0001", "string.well_known_regex HTTP_HEADER_VALUE");
    Probe laxValue = string(r -> r.setWellKnownRegex(KnownRegex.HTTP_HEADER_VALUE).setStrict(false));
    accepts(laxValue, "a\u0001");
    rejects(laxValue, "a\rb", "string.well_known_regex HTTP_HEADER_VALUE strict false");
  }

  @Test
  void wellKnownFormats() {
    Probe hostname = string(r -> r.setHostname(true));
    accepts(hostname, "echo.test", "a-b.example.", "x");
    rejects(hostname, "-a.test", "string.hostname");
    rejects(hostname, "a..test", "string.hostname");
    rejects(hostname, "a_b.test", "string.hostname");
    rejects(hostname, "a".repeat(64) + ".test", "string.hostname");
    Probe ip = string(r -> r.setIp(true));
    accepts(ip, "127.0.0.1", "::1", "::ffff:127.0.0.2");
    rejects(ip, "localhost", "string.ip");
    rejects(ip, "fe80::1%eth0", "string.ip");
    rejects(string(r -> r.setIpv4(true)), "::1", "string.ipv4");
    rejects(string(r -> r.setIpv4(true)), "010.0.0.1", "string.ipv4");
    rejects(string(r -> r.setIpv6(true)), "127.0.0.2", "string.ipv6");
    rejects(string(r -> r.setIpv6(true)), "[::1]", "string.ipv6");
    Probe address = string(r -> r.setAddress(true));
    accepts(address, "127.0.0.2", "::1", "echo.test");
    rejects(address, "echo test", "string.address");
    rejects(string(r -> r.setUri(true)), "/relative", "string.uri");
    accepts(string(r -> r.setUri(true)), "https://echo.test/x");
    accepts(string(r -> r.setUriRef(true)), "/relative");
    rejects(string(r -> r.setUriRef(true)), "a b", "string.uri_ref");
    accepts(string(r -> r.setUuid(true)), "123e4567-e89b-12d3-a456-426614174000");
    rejects(string(r -> r.setUuid(true)), "123e4567e89b12d3a456426614174000", "string.uuid");
  }

  @Test
  void ignoreEmptySkipsEveryRuleForTheEmptyString() {
    Probe format = string(r -> r.setPrefix("%").setSuffix("%").setIgnoreEmpty(true));
    accepts(format, "", "%A%");
    rejects(format, "A", "string.prefix \"%\"", "string.suffix \"%\"");
  }

  @Test
  void bytesRules() {
    ByteString abc = ByteString.copyFromUtf8("abc");
    rejects(bytes(r -> r.setMinLen(4)), abc, "bytes.min_len 4");
    rejects(bytes(r -> r.setMaxLen(2)), abc, "bytes.max_len 2");
    rejects(bytes(r -> r.setLen(2)), abc, "bytes.len 2");
    accepts(bytes(r -> r.setMinLen(3).setMaxLen(3).setLen(3)), abc);
    rejects(bytes(r -> r.setConst(ByteString.copyFromUtf8("x"))), abc, "bytes.const");
    rejects(bytes(r -> r.setPrefix(ByteString.copyFromUtf8("b"))), abc, "bytes.prefix");
    rejects(bytes(r -> r.setSuffix(ByteString.copyFromUtf8("b"))), abc, "bytes.suffix");
    rejects(bytes(r -> r.setContains(ByteString.copyFromUtf8("ac"))), abc, "bytes.contains");
    accepts(bytes(r -> r.setPrefix(ByteString.copyFromUtf8("a")).setSuffix(ByteString.copyFromUtf8("c"))
        .setContains(ByteString.copyFromUtf8("bc"))), abc);
    rejects(bytes(r -> r.setPattern("a.")), abc, "bytes.pattern \"a.\"");
    rejects(bytes(r -> r.addIn(ByteString.copyFromUtf8("x"))), abc, "bytes.in");
    rejects(bytes(r -> r.addNotIn(abc)), abc, "bytes.not_in");
    rejects(bytes(r -> r.setIp(true)), abc, "bytes.ip");
    accepts(bytes(r -> r.setIpv4(true)), ByteString.copyFrom(new byte[] {127, 0, 0, 1}));
    rejects(bytes(r -> r.setIpv6(true)), ByteString.copyFrom(new byte[] {127, 0, 0, 1}), "bytes.ipv6");
    accepts(bytes(r -> r.setMinLen(1).setIgnoreEmpty(true)), ByteString.EMPTY);
  }
}
