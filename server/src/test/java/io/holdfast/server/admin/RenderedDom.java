package io.holdfast.server.admin;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading a page's serialised DOM (the page keeps the elements tests read free of nesting). */
final class RenderedDom {
  private RenderedDom() {}

  /** The text of the element with {@code id} (tags stripped, entities decoded), or fails if there is none. */
  static String textById(String dom, String id) {
    Matcher m = Pattern.compile("<(\\w+)[^>]*\\sid=\"" + Pattern.quote(id) + "\"[^>]*>(.*?)</\\1>", Pattern.DOTALL)
        .matcher(dom);
    if (!m.find()) {
      throw new AssertionError("no element with id \"" + id + "\" in the rendered page");
    }
    return text(m.group(2));
  }

  /** The rows of the table with {@code id}, each as its cells' text; the header row included. */
  static List<List<String>> tableRows(String dom, String id) {
    Matcher table = Pattern.compile("<table[^>]*\\sid=\"" + Pattern.quote(id) + "\"[^>]*>(.*?)</table>",
        Pattern.DOTALL).matcher(dom);
    if (!table.find()) {
      throw new AssertionError("no table with id \"" + id + "\" in the rendered page");
    }
    Matcher row = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL).matcher(table.group(1));
    List<List<String>> rows = new java.util.ArrayList<>();
    while (row.find()) {
      Matcher cell = Pattern.compile("<t[dh][^>]*>(.*?)</t[dh]>", Pattern.DOTALL).matcher(row.group(1));
      List<String> cells = new java.util.ArrayList<>();
      while (cell.find()) {
        cells.add(text(cell.group(1)));
      }
      rows.add(cells);
    }
    return rows;
  }

  /** Markup to the text a reader sees: tags dropped (list items separated by a space), entities decoded. */
  static String text(String html) {
    return html.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").strip()
        .replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
        .replace("&nbsp;", " ").replace("&amp;", "&");
  }
}
