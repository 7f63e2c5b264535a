package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntaxTest {

  @ParameterizedTest
  @ValueSource(strings = {"*", "echo.test", "echo.test:8080", "*.example.com", "*-bar.example.com", "api.*",
      "api-*", "localhost", "a"})
  void validDomains(String domain) {
    assertThat(Syntax.domainError(domain)).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Echo.test", "a.*.b", "**", "*a*", "a..b", "-a.test", "a.test:0", "a b", ":80",
      "a_b.test", "*."})
  void invalidDomains(String domain) {
    assertThat(Syntax.domainError(domain)).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "backend.test", "Backend.Test", "a-b.c1.test", "api.test.", "x1", "1a.test"})
  void hostNames(String name) {
    assertThat(Syntax.isHostName(name)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "a..test", "-a.test", "a-.test", "a_b.test", "127.0.0.256", "10.1", "a b",
      "backend.test:80", "*.test"})
  void notHostNames(String name) {
    assertThat(Syntax.isHostName(name)).isFalse();
  }
}
