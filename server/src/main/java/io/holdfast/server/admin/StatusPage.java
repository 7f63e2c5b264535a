package io.holdfast.server.admin;

import java.util.List;
import java.util.Map;

/**
 * The admin {@code /} page: the {@code /state} document rendered as plain server-side HTML, readable at a
 * glance. No scripts, no framework; every value is escaped.
 */
final class StatusPage {
  private StatusPage() {}

  static String render(Map<String, Object> state) {
    StringBuilder html = new StringBuilder(4096);
    html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Holdfast</title>")
        .append("<meta http-equiv=\"refresh\" content=\"5\">")
        .append("<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}")
        .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}")
        .append(".ACCEPTED{color:#070}.WARNING{color:#a60}.REJECTED{color:#b00}</style></head><body>")
        .append("<h1>Holdfast</h1><table>");
    state.forEach((key, value) -> {
      if (!(value instanceof Map) && !(value instanceof List)) {
        row(html, key, value);
      }
    });
    html.append("</table>");
    if (state.get("xdsStreams") instanceof Map<?, ?> streams) {
      html.append("<h2>xDS streams by node</h2><table><tr><th>node</th><th>streams</th></tr>");
      streams.forEach((node, count) -> row(html, node, count));
      html.append("</table>");
    }
    if (state.get("election") instanceof Map<?, ?> election) {
      html.append("<h2>Election</h2><table>");
      election.forEach((k, v) -> row(html, k, v));
      html.append("</table>");
    }
    if (state.get("config") instanceof Map<?, ?> config) {
      html.append("<h2>Config</h2><table>");
      config.forEach((k, v) -> {
        if (!(v instanceof Map)) {
          row(html, k, v);
        }
      });
      html.append("</table>");
      if (config.get("resources") instanceof Map<?, ?> resources) {
        html.append("<table><tr><th>resource</th><th>state</th><th>problems</th><th>NACK</th></tr>");
        resources.forEach((name, r) -> {
          Map<?, ?> res = r instanceof Map<?, ?> m ? m : Map.of();
          String st = String.valueOf(res.get("state"));
          html.append("<tr><td>").append(escape(name)).append("</td><td class=\"").append(escape(st)).append("\">")
              .append(escape(st)).append("</td><td>").append(escape(res.get("problems"))).append("</td><td>")
              .append(escape(res.containsKey("nack") ? res.get("nack") : "")).append("</td></tr>");
        });
        html.append("</table>");
      }
    }
    return html.append("<p><a href=\"/state\">/state</a> · <a href=\"/metrics\">/metrics</a></p></body></html>")
        .toString();
  }

  private static void row(StringBuilder html, Object key, Object value) {
    html.append("<tr><th>").append(escape(key)).append("</th><td>").append(escape(value)).append("</td></tr>");
  }

  static String escape(Object value) {
    String s = value == null ? "—" : String.valueOf(value);
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
