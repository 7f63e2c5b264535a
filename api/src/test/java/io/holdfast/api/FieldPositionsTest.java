package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FieldPositionsTest {

  private static final String TEXT = """
      # leading comment
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata:
        name: first
      spec:
        static: {hosts: [{addr: a.test, port: 80}]}
      ---
      # second document
      %YAML 1.2
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata:
        name: web
        annotations:
          odd.name/x: "1"
      spec:
        routes:
          - match:
              prefix: /
          - match:
              prefx: /b
            routeAction: {}
      """;

  private ManifestDocument document(int index) {
    return new ManifestReader().read("vs.yaml", TEXT).documents().get(index);
  }

  @Test
  void aFieldIsAtItsOwnLineAndColumnNotTheDocumentsStart() {
    ManifestDocument vs = document(1);
    assertThat(vs.line()).isEqualTo(11);
    Map<String, FieldPositions.Position> at = vs.positions().of(List.of(
        "spec.routes[1].match.prefx", "spec.routes[1]", "kind", "metadata[\"annotations\"][\"odd.name/x\"]",
        "metadata.annotations[\"odd.name/x\"]"));
    assertThat(at.get("spec.routes[1].match.prefx")).isEqualTo(new FieldPositions.Position(22, 9));
    assertThat(at.get("spec.routes[1]")).isEqualTo(new FieldPositions.Position(21, 7));
    assertThat(at.get("kind")).isEqualTo(new FieldPositions.Position(12, 1));
    assertThat(at.get("metadata.annotations[\"odd.name/x\"]")).isEqualTo(new FieldPositions.Position(16, 5));
  }

  @Test
  void aMissingFieldIsAtItsDeepestExistingParentAndTheWholeResourceAtTheDocumentsStart() {
    ManifestDocument vs = document(1);
    assertThat(vs.positions().of("spec.routes[1].routeAction.upstream")).isEqualTo(
        new FieldPositions.Position(23, 7));
    assertThat(vs.positions().of("spec.routes[7].match")).isEqualTo(new FieldPositions.Position(18, 3));
    assertThat(vs.positions().of("")).isEqualTo(new FieldPositions.Position(11, 1));
    assertThat(document(0).positions().of("spec.static.hosts[0].port")).isEqualTo(
        new FieldPositions.Position(7, 35));
  }

  @Test
  void aPathInAnotherSyntaxResolvesAsFarAsItIsUnderstood() {
    assertThat(document(1).positions().of("spec.routes[name=x].match")).isEqualTo(
        new FieldPositions.Position(18, 3));
    assertThat(FieldPositions.steps("a.b[2][\"c.d\"].e")).containsExactly("a", "b", 2, "c.d", "e");
  }

  @Test
  void aDocumentBuiltInCodeHasEveryFieldAtItsLine() {
    assertThat(FieldPositions.unknown(4).of("spec.x")).isEqualTo(new FieldPositions.Position(4, 1));
  }
}
