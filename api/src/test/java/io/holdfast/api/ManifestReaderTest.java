package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ManifestReaderTest {

  private final ManifestReader reader = new ManifestReader();

  @Test
  void readsEveryDocumentWithItsStartLine() {
    ManifestReader.Result result = reader.read("all.yaml", """
        # leading comment
        ---
        kind: A
        ---   # marker with a comment
        kind: B
        ...
        ---
        # only a comment
        ---
        {kind: C}
        """);
    assertThat(result.errors()).isEmpty();
    assertThat(result.documents()).extracting(d -> d.tree().get("kind").stringValue()).containsExactly("A", "B", "C");
    assertThat(result.documents()).extracting(ManifestDocument::line).containsExactly(3, 5, 10);
    assertThat(result.documents()).extracting(ManifestDocument::index).containsExactly(0, 1, 2);
    assertThat(result.documents().get(2).location()).isEqualTo("all.yaml:10");
  }

  @Test
  void malformedDocumentReportsAbsoluteLineAndColumnAndKeepsTheOthers() {
    ManifestReader.Result result = reader.read("bad.yaml", """
        kind: A
        ---
        kind: B
        spec:
          hosts: [1, 2
          port: 3
        ---
        kind: C
        """);
    assertThat(result.documents()).extracting(d -> d.tree().get("kind").stringValue()).containsExactly("A", "C");
    assertThat(result.errors()).hasSize(1);
    ManifestError error = result.errors().get(0);
    assertThat(error.source()).isEqualTo("bad.yaml");
    assertThat(error.line()).isEqualTo(6);
    assertThat(error.column()).isEqualTo(7);
    assertThat(error.reason()).startsWith("invalid YAML: while parsing a flow sequence; expected ',' or ']'");
    assertThat(error.toString()).startsWith("bad.yaml:6:7: invalid YAML:");
  }

  @Test
  void badIndentationAndTabs() {
    ManifestReader.Result indent = reader.read("indent.yaml", "a: 1\n  b: 2\n");
    assertThat(indent.errors()).singleElement().satisfies(e -> {
      assertThat(e.line()).isEqualTo(2);
      assertThat(e.column()).isEqualTo(4);
      assertThat(e.reason()).isEqualTo("invalid YAML: mapping values are not allowed here");
    });
    ManifestReader.Result tab = reader.read("tab.yaml", "---\na: 1\n---\n\tb: 1\n");
    assertThat(tab.documents()).hasSize(1);
    assertThat(tab.errors()).singleElement().satisfies(e -> {
      assertThat(e.line()).isEqualTo(4);
      assertThat(e.reason()).contains("TAB");
    });
  }

  /** Jackson read {@code timeout: *t} as the text "t"; an alias is now an error at its line and column. */
  @Test
  void aliasesAreErrorsAtTheirPosition() {
    ManifestReader.Result result = reader.read("alias.yaml", """
        kind: A
        ---
        kind: B
        spec:
          defaults: &t 5s
          domains: ["*.example.com", "*"]
          timeout: *t
        ---
        kind: C
        """);
    assertThat(result.documents()).extracting(d -> d.tree().get("kind").stringValue()).containsExactly("A", "C");
    assertThat(result.errors()).singleElement().satisfies(e -> {
      assertThat(e.line()).isEqualTo(7);
      assertThat(e.column()).isEqualTo(12);
      assertThat(e.reason()).contains("YAML aliases are not supported: *t");
    });
    // A '*' in a quoted domain is no alias.
    assertThat(reader.read("star.yaml", "domains: ['*', \"*.a\"]\n").errors()).isEmpty();
  }

  @Test
  void anAliasBombIsRefusedWithoutExpandingIt() {
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'z'; c++) {
      String previous = String.valueOf((char) (c - 1));
      bomb.append(c).append(": &").append(c).append(" [").append(("*" + previous + ", ").repeat(9)).append('*')
          .append(previous).append("]\n");
    }
    ManifestReader.Result result = reader.read("bomb.yaml", bomb.toString());
    assertThat(result.errors()).singleElement().satisfies(e -> assertThat(e.line()).isEqualTo(2));
  }

  @Test
  void duplicateKeysAreErrors() {
    ManifestReader.Result result = reader.read("dup.yaml", "kind: A\nkind: B\n");
    assertThat(result.documents()).isEmpty();
    assertThat(result.errors()).singleElement().satisfies(e -> {
      assertThat(e.line()).isEqualTo(2);
      assertThat(e.reason()).contains("Duplicate").contains("kind");
    });
  }

  @Test
  void nonMappingDocumentIsAnError() {
    ManifestReader.Result result = reader.read("list.yaml", "a: 1\n---\n- 1\n- 2\n");
    assertThat(result.documents()).hasSize(1);
    assertThat(result.errors()).singleElement().satisfies(e -> {
      assertThat(e.line()).isEqualTo(3);
      assertThat(e.reason()).isEqualTo("document 1 is a list, expected a mapping (a resource)");
    });
  }

  @Test
  void markersInsideBlockScalarsAreNotPossibleSoIndentedDashesStayContent() {
    ManifestReader.Result result = reader.read("block.yaml", "body: |\n  ---\n  text\n");
    assertThat(result.errors()).isEmpty();
    assertThat(result.documents().get(0).tree().get("body").stringValue()).isEqualTo("---\ntext\n");
  }

  @Test
  void emptyTextHasNoDocuments() {
    assertThat(reader.read("empty.yaml", "").documents()).isEmpty();
    assertThat(reader.read("empty.yaml", "---\n---\n").errors()).isEmpty();
  }

  @Test
  void aSourcesBrokenAndLastGoodVersionsAreBothReusedAndNotParsedAgainOnEachBuild() {
    ManifestReader.Result good = reader.read("app.yaml", "kind: A\n");
    ManifestReader.Result broken = reader.read("app.yaml", "kind: [\n");
    assertThat(reader.read("app.yaml", "kind: A\n")).isSameAs(good);
    assertThat(reader.read("app.yaml", "kind: [\n")).isSameAs(broken);
    ManifestReader.Result third = reader.read("app.yaml", "kind: C\n");
    assertThat(reader.read("app.yaml", "kind: C\n")).isSameAs(third);
    assertThat(reader.read("app.yaml", "kind: A\n")).as("the oldest of three versions is let go").isNotSameAs(good);
  }

  @Test
  void retainOnlyForgetsTheParseOfSourcesThatAreGone() {
    ManifestReader.Result kept = reader.read("kept.yaml", "kind: A\n");
    ManifestReader.Result gone = reader.read("gone.yaml", "kind: B\n");
    reader.retainOnly(java.util.List.of("kept.yaml"));
    assertThat(reader.read("kept.yaml", "kind: A\n")).isSameAs(kept);
    ManifestReader.Result again = reader.read("gone.yaml", "kind: B\n");
    assertThat(again).isNotSameAs(gone);
    assertThat(again.documents().get(0).tree().get("kind").stringValue()).isEqualTo("B");
  }

  @Test
  void oneDocumentAsLargeAsTheFileLimitAllowsIsRead() {
    // 6 MiB in one document: above snakeyaml-engine's default 3 MiB code-point limit, below the 8 MiB file limit.
    StringBuilder text = new StringBuilder("kind: Big\ndata:\n");
    String line = "  k%07d: \"" + "x".repeat(100) + "\"\n";
    for (int i = 0; text.length() < 6 * 1024 * 1024; i++) {
      text.append(String.format(line, i));
    }
    ManifestReader.Result result = reader.read("big.yaml", text.toString());
    assertThat(result.errors()).isEmpty();
    assertThat(result.documents()).singleElement()
        .satisfies(d -> assertThat(d.tree().get("data").size()).isGreaterThan(50_000));
  }

  @Test
  void aDocumentOverTheLimitIsOneNamedErrorNotACrash() {
    String text = "kind: Big\ndata: \"" + "x".repeat(ManifestReader.MAX_DOCUMENT_CODE_POINTS) + "\"\n---\nkind: Small\n";
    ManifestReader.Result result = reader.read("huge.yaml", text);
    assertThat(result.errors()).singleElement().satisfies(e -> assertThat(e.reason())
        .contains("exceeds the limit").contains(String.valueOf(ManifestReader.MAX_DOCUMENT_CODE_POINTS)));
    assertThat(result.documents()).extracting(d -> d.tree().get("kind").stringValue()).containsExactly("Small");
  }
}
