package company.data.compactor.testing;

import company.data.compactor.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/**
 * The command line as users call it, in process: arguments and environment in, exit code and
 * streams out.
 */
public final class CliRunner {

  private CliRunner() {}

  /** What one command produced. */
  public record Result(int code, String out, String err) {}

  /** Runs {@code bin/compactor args} with {@code environment}. */
  public static Result run(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), environment);
    return new Result(code, out.toString(), err.toString());
  }
}
