package io.holdfast.xds.testing;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * grpc-java's xDS client in a test JVM, the way every xDS end-to-end test sets it up: {@link #bootstrap} points
 * it at an xDS server on loopback (through the inline bootstrap system property), {@link #channel} opens
 * {@code xds:///host} channels, and {@link #close()} shuts them and clears the bootstrap.
 *
 * <p>grpc-java reads the bootstrap once per JVM (its shared xDS client pool keeps the first one), so a JVM runs
 * one class that bootstraps: the poms give each such class a JVM of its own, and the address in the bootstrap
 * must stay valid for the class's whole run (a fault proxy in front of a server that restarts on a new port).
 */
public final class GrpcXdsClient implements AutoCloseable {
  public static final String BOOTSTRAP_PROPERTY = "io.grpc.xds.bootstrapConfig";

  private final List<ManagedChannel> channels = new CopyOnWriteArrayList<>();

  private GrpcXdsClient() {
  }

  /**
   * Bootstraps grpc-java's xDS client at {@code 127.0.0.1:xdsPort} (insecure, xDS v3) as node {@code nodeId} of
   * cluster {@code cluster}. Call it before the first {@code xds:///} channel of the JVM resolves.
   */
  public static GrpcXdsClient bootstrap(int xdsPort, String nodeId, String cluster) {
    System.setProperty(BOOTSTRAP_PROPERTY, bootstrapJson(xdsPort, nodeId, cluster));
    return new GrpcXdsClient();
  }

  /**
   * As {@link #bootstrap}, for xDS-enabled servers too: grpc-java's {@code XdsServerBuilder} servers of the JVM ask
   * for the listener {@code serverListener} (the bootstrap's {@code server_listener_resource_name_template}, here
   * without {@code %s}: one name whatever the server's address).
   */
  public static GrpcXdsClient bootstrap(int xdsPort, String nodeId, String cluster, String serverListener) {
    System.setProperty(BOOTSTRAP_PROPERTY, bootstrapJson(xdsPort, nodeId, cluster, serverListener));
    return new GrpcXdsClient();
  }

  /** The bootstrap document {@link #bootstrap} installs. */
  public static String bootstrapJson(int xdsPort, String nodeId, String cluster) {
    return """
        {"xds_servers": [{"server_uri": "127.0.0.1:%d", "channel_creds": [{"type": "insecure"}],
                          "server_features": ["xds_v3"]}],
         "node": {"id": "%s", "cluster": "%s"}}
        """.formatted(xdsPort, nodeId, cluster);
  }

  /** The bootstrap document of {@link #bootstrap(int, String, String, String)}. */
  public static String bootstrapJson(int xdsPort, String nodeId, String cluster, String serverListener) {
    return """
        {"xds_servers": [{"server_uri": "127.0.0.1:%d", "channel_creds": [{"type": "insecure"}],
                          "server_features": ["xds_v3"]}],
         "node": {"id": "%s", "cluster": "%s"},
         "server_listener_resource_name_template": "%s"}
        """.formatted(xdsPort, nodeId, cluster, serverListener);
  }

  /** A channel to {@code xds:///host}; {@link #close()} shuts it down. */
  public ManagedChannel channel(String host) {
    ManagedChannel channel = Grpc.newChannelBuilder("xds:///" + host, InsecureChannelCredentials.create()).build();
    channels.add(channel);
    return channel;
  }

  /** Shuts every channel down (bounded wait each) and clears the bootstrap property. */
  @Override
  public void close() throws InterruptedException {
    try {
      for (ManagedChannel c : channels) {
        c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } finally {
      System.clearProperty(BOOTSTRAP_PROPERTY);
    }
  }
}
