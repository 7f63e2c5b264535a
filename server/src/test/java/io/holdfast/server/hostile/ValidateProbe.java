package io.holdfast.server.hostile;

import io.holdfast.server.cli.HoldfastCli;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * {@code java -Xmx256m ValidateProbe ARGS...}: runs {@code holdfast validate ARGS} in this JVM and then prints, on
 * standard error, one line {@code PROBE exit=N elapsedMs=N cpuMs=N peakHeapMiB=N} (cpuMs: the
 * command's thread, which a loaded machine does not inflate as it does wall-clock time) (or {@code error=NAME} when the command
 * threw, e.g. OutOfMemoryError). The peak is the sum of the heap pools' peak usage since the JVM started. Uses only
 * what the CLI already offered before the bounds existed, so scripts/hostile-inputs.sh measures old and new alike.
 */
public final class ValidateProbe {

  private ValidateProbe() {
  }

  public static void main(String[] args) {
    String[] command = new String[args.length + 1];
    command[0] = "validate";
    System.arraycopy(args, 0, command, 1, args.length);
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpuStart = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    String outcome;
    try {
      outcome = "exit=" + HoldfastCli.withDefaultWiring().execute(command);
    } catch (Throwable t) {
      outcome = "error=" + t.getClass().getSimpleName();
    }
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    long cpuMs = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.flush();
    System.err.println("PROBE " + outcome + " elapsedMs=" + elapsedMs + " cpuMs=" + cpuMs + " peakHeapMiB=" + (peak >> 20));
    System.exit(0);
  }
}
