package company.data.compactor.testing;

import company.data.compactor.storage.Scratch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium ({@code /usr/bin/chromium}, installed by {@code bin/test}), run headless with
 * no network chatter and a throw-away profile: renders a local page to its DOM or a PNG.
 */
public final class HeadlessChromium {

  private static final Path BINARY =
      Path.of(System.getenv().getOrDefault("COMPACTOR_CHROMIUM", "/usr/bin/chromium"));

  private HeadlessChromium() {}

  /** The page's DOM after rendering (scripts would have run; ours have none). */
  public static String dumpDom(Path page) throws IOException, InterruptedException {
    return new String(run(page, List.of("--dump-dom")), StandardCharsets.UTF_8);
  }

  /** The page's DOM after rendering in a window of {@code width} x {@code height}. */
  public static String dumpDom(Path page, int width, int height)
      throws IOException, InterruptedException {
    return new String(
        run(page, List.of("--dump-dom", "--window-size=" + width + "," + height)),
        StandardCharsets.UTF_8);
  }

  /** A PNG of the page in a window of {@code width} x {@code height}. */
  public static Path screenshot(Path page, Path png, int width, int height)
      throws IOException, InterruptedException {
    run(
        page,
        List.of(
            "--screenshot=" + png.toAbsolutePath(),
            "--window-size=" + width + "," + height,
            "--hide-scrollbars"));
    return png;
  }

  private static byte[] run(Path page, List<String> mode) throws IOException, InterruptedException {
    if (!Files.isExecutable(BINARY)) {
      throw new IllegalStateException(
          BINARY
              + " is missing: install Debian's chromium (bin/test does: apt-get install chromium)");
    }
    Path profile = Files.createTempDirectory("chromium-profile");
    List<String> command =
        new ArrayList<>(
            List.of(
                BINARY.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile));
    command.addAll(mode);
    command.add(page.toUri().toString());
    try {
      Process process =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IOException(
            "chromium failed on "
                + page
                + " (exit "
                + (process.isAlive() ? "timeout" : process.exitValue())
                + ")");
      }
      return out;
    } finally {
      Scratch.deleteTree(profile);
    }
  }
}
