package io.holdfast.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;


import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input corpus ({@link HostileCorpus}) through {@code holdfast validate} and through a running file-mode
 * server, each in a child JVM with 256 MiB of heap: each input gets its named reason, with no stack trace, within
 * its time, and the server applies an unrelated edit within 2 s after each. (The webhook leg is
 * {@code HostileAdmissionTest}.) Time is judged on the CPU time of the command's thread, since this machine's
 * wall clock is shared; the wall clock is bounded loosely.
 *
 * <p>Validate gets a fresh JVM per input, as each real {@code holdfast validate} does, {@link #PARALLEL_CHILDREN} at
 * a time; the server is one JVM that receives every input in turn, as a real one would. The children run with C1
 * only and the serial collector ({@link #CHILD_FLAGS}): on two shared cores C2's compiler threads roughly doubled a
 * child's wall-clock time without lowering the command thread's CPU time, and the serial collector is what the JVM
 * picks by itself in a container of this size.
 */
class HostileInputTest {

  private static final Pattern PROBE = Pattern.compile("PROBE (\\S+) elapsedMs=(\\d+) cpuMs=(\\d+) peakHeapMiB=(\\d+)");
  private static final Pattern SERVED = Pattern.compile(
      "SERVED (\\S+) reportedMs=(\\d+) editMs=(\\d+) peakHeapMiB=(\\d+) retainedBeforeMiB=(\\d+)");
  /** The heap every leg must get by with (issue 22). */
  private static final String HEAP = "-Xmx256m";
  private static final List<String> CHILD_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  /** Two cores: more children at once only queue for them and stretch each one's wall-clock time. */
  private static final int PARALLEL_CHILDREN = 2;

  @TempDir
  Path dir;

  @Test
  void validateGivesEachItsNamedReasonWithin5sOfCpuAnd256MiB() throws Exception {
    List<HostileCorpus.Input> inputs = HostileCorpus.inputs();
    ExecutorService children = Executors.newFixedThreadPool(PARALLEL_CHILDREN);
    try {
      List<Future<Validated>> runs = new ArrayList<>();
      for (HostileCorpus.Input input : inputs) {
        Path file = dir.resolve(input.name() + ".yaml");
        Files.writeString(file, HostileCorpus.BASE + input.yaml());
        runs.add(children.submit(() -> validate(input, file)));
      }
      List<String> table = new ArrayList<>();
      for (Future<Validated> run : runs) {
        Validated result = run.get(180, TimeUnit.SECONDS);
        HostileCorpus.Input input = result.input();
        String text = result.text();
        Matcher probe = PROBE.matcher(text);
        assertThat(probe.find()).as(input.name() + ": " + tail(text)).isTrue();
        table.add(String.format("%-24s %s wall=%sms cpu=%sms heap=%sMiB", input.name(), probe.group(1),
            probe.group(2), probe.group(3), probe.group(4)));
        assertThat(probe.group(1)).as(input.name()).isEqualTo("exit=1");
        assertThat(text).as(input.name()).contains(input.expected()).doesNotContain("\tat ", "Exception in");
        assertThat(Long.parseLong(probe.group(3))).as(input.name() + " cpu ms").isLessThan(5_000);
        assertThat(Long.parseLong(probe.group(2))).as(input.name() + " wall ms").isLessThan(60_000);
        // A line per finding, each message cut: 2,000 RouteTables' notes are ~300 KB, a 2 MB value is not echoed.
        assertThat(result.outputBytes()).as(input.name() + ": output size").isLessThan(1 << 20);
      }
      table.forEach(System.out::println);
    } finally {
      children.shutdownNow();
    }
  }

  private record Validated(HostileCorpus.Input input, String text, long outputBytes) {
  }

  private Validated validate(HostileCorpus.Input input, Path file) throws Exception {
    Path output = dir.resolve(input.name() + ".out");
    Process process = child(ValidateProbe.class, file.toString()).redirectOutput(output.toFile()).start();
    try {
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(input.name()).isTrue();
    } finally {
      process.destroyForcibly();
    }
    return new Validated(input, Files.readString(output, StandardCharsets.UTF_8), Files.size(output));
  }

  @Test
  void aRunningServerWith256MiBReportsEachAndStillAppliesTheNextEdit() throws Exception {
    Path output = dir.resolve("server.out");
    Process process = child(RunningServerProbe.class, dir.resolve("server").toString())
        .redirectOutput(output.toFile()).start();
    boolean ended;
    try {
      ended = process.waitFor(300, TimeUnit.SECONDS);
    } finally {
      process.destroyForcibly();
    }
    String text = Files.readString(output, StandardCharsets.UTF_8);
    List<String> served = new ArrayList<>();
    Matcher line = SERVED.matcher(text);
    while (line.find()) {
      served.add(line.group(1));
      System.out.println(line.group());
    }
    assertThat(ended).as("the server probe ended: " + tail(text)).isTrue();
    // 70: a worker hit an OutOfMemoryError or StackOverflowError and the server ended itself (WorkerFailures).
    assertThat(process.exitValue()).as(tail(text)).isZero();
    assertThat(text).contains("PROBE ok").doesNotContain("OutOfMemoryError", "StackOverflowError",
        "stopped unexpectedly");
    assertThat(served).containsExactlyElementsOf(HostileCorpus.inputs().stream().map(HostileCorpus.Input::name)
        .toList());
  }

  /** A JVM with {@link #HEAP} on this test's class path, running {@code main}; standard error joins the output. */
  private static ProcessBuilder child(Class<?> main, String argument) {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add(HEAP);
    command.addAll(CHILD_FLAGS);
    command.addAll(List.of("-cp", classPath, main.getName(), argument));
    return new ProcessBuilder(command).redirectErrorStream(true);
  }

  private static String tail(String text) {
    return text.length() < 2000 ? text : text.substring(text.length() - 2000);
  }

}
