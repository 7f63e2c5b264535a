package io.holdfast.it.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** What the figures were measured on, read from the running JVM and /proc. */
public final class Machine {
  private Machine() {
  }

  public static String describe() {
    OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    return String.format(Locale.ROOT, "%d CPUs (nproc) %s, %.1f GiB memory, %s %s (%s), %s %s %s",
        Runtime.getRuntime().availableProcessors(), cpuModel().map(m -> "(" + m + ")").orElse(""),
        os.getTotalMemorySize() / (1024.0 * 1024 * 1024), System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"), System.getProperty("java.vm.vendor"),
        System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"));
  }

  /** One-minute load average, e.g. to show how busy the shared machine was. */
  public static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** CPU time used by this JVM so far, in nanoseconds. */
  public static long processCpuNanos() {
    return ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class).getProcessCpuTime();
  }

  private static Optional<String> cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
