package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code holdfast translate} on basic authentication: the listener carries the basic_auth filter, whose users
 * field Envoy's API marks sensitive, so the dump shows it redacted as it does private keys.
 */
class BasicAuthTranslateTest {

  private static final Path GOLDEN = Path.of("..", "xds", "src", "test", "resources", "golden",
      "security-basic-auth", "input.yaml");
  private static final List<String> HASHES = List.of("g2YDYHBhl9R/ddqtGep+ipAO4aU=",
      "bOWgjgJew8XNjPXTyFghAc+ha1M=", "hsAaMBat8aKiQgxhKhAqvbXOPbw=");

  @TempDir
  Path dir;

  @Test
  void theFilterIsThereWithItsUsersRedacted() throws IOException {
    Files.copy(GOLDEN, dir.resolve("input.yaml"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    new HoldfastCli(settings -> 0, java.util.Map.of()).execute(new PrintWriter(out), new PrintWriter(err),
        "translate", dir.toString(), "-o", "json");

    assertThat(out.toString()).contains("envoy.filters.http.basic_auth/default/admin", "[redacted]", "x-user");
    for (String hash : HASHES) {
      assertThat(out.toString()).doesNotContain(hash);
      assertThat(err.toString()).doesNotContain(hash);
    }
  }
}
