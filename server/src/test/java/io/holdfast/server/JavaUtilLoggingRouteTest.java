package io.holdfast.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** gRPC logs through java.util.logging: once routed, its records reach Logback and no JDK console handler. */
class JavaUtilLoggingRouteTest {

  @Test
  void grpcJavaUtilLoggingReachesLogbackOnly() {
    Logging.routeJavaUtilLogging();
    Logging.routeJavaUtilLogging(); // idempotent: still one handler, each record once
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    Logger grpc = (Logger) LoggerFactory.getLogger("io.grpc.test.Probe");
    grpc.addAppender(logs);
    try {
      java.util.logging.Logger.getLogger("io.grpc.test.Probe").warning("transport failed");
    } finally {
      grpc.detachAppender(logs);
    }
    assertThat(logs.list).singleElement().satisfies(event -> {
      assertThat(event.getLevel()).isEqualTo(Level.WARN);
      assertThat(event.getFormattedMessage()).isEqualTo("transport failed");
    });
    java.util.logging.Handler[] root = java.util.logging.LogManager.getLogManager().getLogger("").getHandlers();
    assertThat(root).singleElement().isInstanceOf(org.slf4j.bridge.SLF4JBridgeHandler.class);
  }
}
