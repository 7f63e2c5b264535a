package io.holdfast.common;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every long-lived worker thread (the config watcher, the Kubernetes rebuild, the webhook's request threads,
 * the status writer) does with a {@link Throwable} it caught: it survives it, unless the process is no longer
 * sound. A dead worker behind a green probe is the failure this class exists to rule out: either the thread goes
 * on, or the process ends so that Kubernetes restarts it, and it serves its snapshot from disk again.
 *
 * <p>{@link #isFatal Fatal} are the errors after which the JVM's state cannot be trusted: every
 * {@link VirtualMachineError} (out of memory, stack overflow, internal error) and every {@link LinkageError} (a class
 * that failed to load or initialise stays broken for the life of the process). Everything else is
 * <em>recovered</em>: the worker logs it and carries on with its next iteration.
 *
 * <p>Process-wide by nature (ending the process is), so the handler and the observer are process-wide too: the
 * server installs its metrics observer at start-up, and a test installs a recording {@link FatalHandler} in place of
 * the one that exits, and puts the previous one back. Thread-safe.
 */
public final class WorkerFailures {

  /** Exit status of a process ended by a fatal error in a worker (EX_SOFTWARE of sysexits.h). */
  public static final int FATAL_EXIT_STATUS = 70;
  /** How long the shutdown hooks get (lease release, closing streams) before the process is halted. */
  private static final long EXIT_GRACE_SECONDS = 10;
  private static final Logger log = LoggerFactory.getLogger(WorkerFailures.class);

  /** What a caught Throwable means for the worker. */
  public enum Kind {
    /** Logged; the worker goes on. */
    RECOVERED,
    /** The process is unsound: the {@link FatalHandler} ends it. */
    FATAL;

    /** The lower-case label used in metrics. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Told of every failure a worker caught, e.g. to count it in a metric. Must not throw. */
  @FunctionalInterface
  public interface Observer {
    void failed(String worker, Kind kind, Throwable failure);
  }

  /** Ends the process after a fatal error; replaced in tests by one that records the call. */
  @FunctionalInterface
  public interface FatalHandler {
    void onFatal(String worker, Throwable error);

    /**
     * Exits with {@link #FATAL_EXIT_STATUS} from a fresh thread (the failing one may be one the shutdown hooks
     * wait for), and halts if the hooks have not finished within {@value #EXIT_GRACE_SECONDS} s: an unsound JVM
     * must not linger.
     */
    FatalHandler EXIT = (worker, error) -> {
      Thread exit = new Thread(() -> System.exit(FATAL_EXIT_STATUS), "holdfast-fatal-exit");
      exit.start();
      Thread halt = new Thread(() -> {
        try {
          TimeUnit.SECONDS.sleep(EXIT_GRACE_SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(FATAL_EXIT_STATUS);
      }, "holdfast-fatal-halt");
      halt.setDaemon(true);
      halt.start();
    };
  }

  private static volatile Observer observer = (worker, kind, failure) -> { };
  private static volatile FatalHandler fatalHandler = FatalHandler.EXIT;

  private WorkerFailures() {
  }

  /** True for the errors after which the process cannot be trusted (see the class documentation). */
  public static boolean isFatal(Throwable failure) {
    return failure instanceof VirtualMachineError || failure instanceof LinkageError;
  }

  /**
   * Reports a Throwable the worker {@code worker} caught: logs it and tells the observer; when it is
   * {@link #isFatal fatal}, calls the fatal handler (which by default ends the process). Returns normally in every
   * case, so the caller's loop goes on until the process ends. Never throws.
   *
   * @param worker the worker's stable name (a metric label: no per-thread numbers), e.g. {@code config-watcher}
   * @return the kind of failure it was
   */
  public static Kind caught(String worker, Throwable failure) {
    Kind kind = isFatal(failure) ? Kind.FATAL : Kind.RECOVERED;
    try {
      if (kind == Kind.FATAL) {
        log.error("worker hit a fatal error; ending the process so it restarts from its snapshot worker={} error={}",
            worker, failure.toString(), failure);
      } else {
        log.error("worker failed; it goes on with its next iteration worker={} error={}", worker,
            failure.toString(), failure);
      }
      observer.failed(worker, kind, failure);
    } catch (Throwable reporting) {
      // Logging or metering itself failed (out of memory, most likely): what matters below still happens.
      kind = isFatal(reporting) ? Kind.FATAL : kind;
    }
    if (kind == Kind.FATAL) {
      try {
        fatalHandler.onFatal(worker, failure);
      } catch (Throwable ignored) {
        Runtime.getRuntime().halt(FATAL_EXIT_STATUS); // could not even start the orderly exit
      }
    }
    return kind;
  }

  /** Installs the observer of every failure (the server's metrics); returns the previous one. */
  public static Observer observe(Observer newObserver) {
    Observer previous = observer;
    observer = Objects.requireNonNull(newObserver, "observer");
    return previous;
  }

  /** Installs what ends the process on a fatal error; returns the previous handler, to put back after a test. */
  public static FatalHandler onFatal(FatalHandler handler) {
    FatalHandler previous = fatalHandler;
    fatalHandler = Objects.requireNonNull(handler, "handler");
    return previous;
  }
}
