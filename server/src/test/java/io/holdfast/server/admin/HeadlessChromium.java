package io.holdfast.server.admin;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's {@code chromium} in headless mode, driven from the command line (no WebDriver): loads a page and
 * returns the DOM it rendered, serialised. Missing chromium fails the test (no skip): {@code .ci/run} installs it.
 */
final class HeadlessChromium {
  private static final Duration LOAD_BOUND = Duration.ofSeconds(20);

  private HeadlessChromium() {}

  /** The rendered DOM of {@code url}; fails if chromium is absent, exits non-zero or outlives the bound. */
  static String dumpDom(URI url, Path workDir) throws IOException, InterruptedException {
    Path chromium = find().orElseThrow(() -> new AssertionError("chromium is not installed (not on PATH): the status "
        + "page is tested in a real headless browser; .ci/run installs it (apt-get install chromium)"));
    Path profile = Files.createTempDirectory(workDir, "chromium-profile-");
    Path out = workDir.resolve(profile.getFileName() + ".dom.html");
    Path err = workDir.resolve(profile.getFileName() + ".stderr.txt");
    Process process = new ProcessBuilder(chromium.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
        "--no-first-run", "--disable-extensions", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
        "--dump-dom", url.toString())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!process.waitFor(LOAD_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
      kill(process);
      throw new AssertionError("chromium did not render " + url + " within " + LOAD_BOUND.toSeconds() + " s");
    }
    kill(process); // its helper processes may linger after the browser exits
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    if (process.exitValue() != 0 || dom.isBlank()) {
      throw new AssertionError("chromium exited " + process.exitValue() + " with "
          + (dom.isBlank() ? "no DOM" : dom.length() + " chars") + "; stderr tail: " + tail(err));
    }
    return dom;
  }

  private static void kill(Process process) throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(5, TimeUnit.SECONDS);
  }

  private static Optional<Path> find() {
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    return Arrays.stream(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, "chromium")).filter(Files::isExecutable).findFirst();
  }

  private static String tail(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
  }

  // ---- reading the serialised DOM (the page keeps the elements tests read free of nesting) -------------

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
