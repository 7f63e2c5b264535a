package io.holdfast.server.source;

/**
 * Receives each new read of the config directory. Called on the watcher's single thread, one call at a time, so
 * a slow listener delays (and thereby coalesces) later reads rather than running concurrently with them.
 */
@FunctionalInterface
public interface ConfigFilesListener {
  void onConfigFiles(ConfigFiles files);
}
