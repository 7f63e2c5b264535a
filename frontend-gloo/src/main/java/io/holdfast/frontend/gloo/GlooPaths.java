package io.holdfast.frontend.gloo;

import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.util.List;

/**
 * The field paths of Holdfast's findings, spelled as in the Gloo object they are about: Holdfast's VirtualService
 * has {@code spec.routes} and {@code spec.domains} where Gloo's has {@code spec.virtualHost.routes} and
 * {@code spec.virtualHost.domains}; its Gateway has {@code spec.port} where Gloo's has {@code spec.bindPort}; its
 * Upstream has {@code spec.connection} where Gloo's has {@code spec.connectionConfig} and HTTP/2 settings.
 * (A Gloo route with several matchers is several Holdfast routes, so a route index past such a route counts the
 * copies.)
 */
final class GlooPaths {

  private GlooPaths() {
  }

  static ObjectStatus inGlooTerms(ObjectStatus status) {
    String kind = status.key().kind();
    List<Finding> findings = status.findings().stream()
        .map(f -> new Finding(f.severity(), path(kind, f.field()), f.reason(), f.message())).toList();
    return new ObjectStatus(status.key(), status.observedGeneration(), status.conditions(), findings,
        status.parents(), status.sections());
  }

  static String path(String kind, String field) {
    if (kind.equals(GlooKinds.VIRTUAL_SERVICE)) {
      for (String moved : List.of("spec.routes", "spec.domains", "spec.options")) {
        if (field.equals(moved) || field.startsWith(moved + ".") || field.startsWith(moved + "[")) {
          return "spec.virtualHost." + field.substring("spec.".length());
        }
      }
    }
    if (kind.equals(GlooKinds.GATEWAY) && (field.equals("spec.port"))) {
      return "spec.bindPort";
    }
    if (kind.equals(GlooKinds.GATEWAY) && field.startsWith("spec.options.")) {
      return GlooListenerOptions.glooPath(field);
    }
    if (kind.equals(GlooKinds.UPSTREAM) && field.startsWith("spec.connection")) {
      return UpstreamReader.glooPath(field);
    }
    return field;
  }
}
