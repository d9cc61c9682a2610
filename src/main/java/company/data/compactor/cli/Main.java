package company.data.compactor.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.error.CompactorException;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/compactor}: the command-line entry point. Exit codes: 0 success, 2 invalid input
 * (nothing touched), 3 maintenance done but reporting failed (telemetry not recorded or the lease
 * not released; the report is printed and says which), 1 any other failure.
 */
@Command(
    name = "compactor",
    mixinStandardHelpOptions = true,
    version = "delta-compactor 0.1.0",
    description = {
      "Maintenance gate for Delta Lake tables: measures small-file fragmentation per partition,"
          + " compacts small files into large ones without losing or duplicating a row, measures the "
          + "read latency it saves, vacuums files no reader can still need, and keeps the Delta log"
          + " short (checkpoints, expired log files).",
      "",
      "Run without AWS on a demo table:  bin/compactor run"
    },
    footer = {
      "",
      "Exit codes: 0 success, 2 invalid input (nothing touched), 3 maintenance done but reporting"
          + " failed (telemetry not recorded or lease not released; see telemetry_status and"
          + " lease_release_status in the report), 1 any other failure.",
      "Set COMPACTOR_DEBUG=1 to print stack traces."
    })
public final class Main implements Callable<Integer> {

  /**
   * The subcommands, in the order the help lists them, by the name each one's {@code @Command}
   * gives it.
   */
  static final Map<String, Class<?>> COMMANDS = commands();

  private static Map<String, Class<?>> commands() {
    Map<String, Class<?>> commands = new LinkedHashMap<>();
    commands.put("run", RunCommand.class);
    commands.put("plan", PlanCommand.class);
    commands.put("inspect", InspectCommand.class);
    commands.put("vacuum", VacuumCommand.class);
    commands.put("cleanup-log", CleanupLogCommand.class);
    commands.put("history", HistoryCommand.class);
    commands.put("help", CommandLine.HelpCommand.class);
    return Collections.unmodifiableMap(commands);
  }

  static final int EXIT_OK = 0;
  static final int EXIT_FAILURE = 1;
  static final int EXIT_INVALID = 2;
  static final int EXIT_REPORTING_FAILED = 3;

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;

  Main(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  /** The environment the commands configure storage and DuckDB from. */
  Map<String, String> environment() {
    return environment;
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    StartUp startUp = StartUp.begin();
    CommandLine cli =
        commandLine(
            new PrintWriter(System.out, true),
            new PrintWriter(System.err, true),
            System.getenv(),
            commandsFor(args));
    startUp.awaitLogging();
    System.exit(cli.execute(args));
  }

  /**
   * First uses that the command does not wait for, on a thread of their own beside picocli's model
   * of the commands (~85 ms in a new JVM): the log manager and its set-up (~60-75 ms), which the
   * command waits for before it starts, then Jackson's classes (~30 ms, first needed by the lease),
   * which it does not.
   */
  private static final class StartUp {
    private final CountDownLatch logging = new CountDownLatch(1);
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    static StartUp begin() {
      StartUp startUp = new StartUp();
      Thread thread = new Thread(startUp::run, "start-up");
      thread.setDaemon(true);
      thread.start();
      return startUp;
    }

    private void run() {
      try {
        CliLogging.configure();
      } catch (RuntimeException e) {
        failure.set(e);
      } finally {
        logging.countDown();
      }
      // Initialises Jackson's classes; the mapper itself is dropped.
      new ObjectMapper();
    }

    /** Waits for logging to be set up; a failure there fails the command as it did before. */
    void awaitLogging() {
      boolean interrupted = false;
      while (true) {
        try {
          logging.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      RuntimeException e = failure.get();
      if (e != null) {
        throw e;
      }
    }
  }

  /** Runs the command line with the given streams and returns the exit code (for tests). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    return execute(args, out, err, System.getenv());
  }

  /** As {@link #execute(String[], PrintWriter, PrintWriter)}, with an explicit environment. */
  public static int execute(
      String[] args, PrintWriter out, PrintWriter err, Map<String, String> environment) {
    return commandLine(out, err, environment, commandsFor(args)).execute(args);
  }

  /**
   * The subcommands picocli's model needs for {@code args}: only the table command named first,
   * else all of them (the top command's help, {@code help <command>}, the suggestions for a
   * misspelt command, an {@code @file}). Picocli builds each subcommand's model from its
   * annotations at start; leaving out the six a run does not use saves ~37 ms of every start.
   */
  static Collection<Class<?>> commandsFor(String[] args) {
    Class<?> named = args.length == 0 ? null : COMMANDS.get(args[0]);
    return named == null || named == CommandLine.HelpCommand.class
        ? COMMANDS.values()
        : List.of(named);
  }

  /** The command line with every subcommand, as {@code compactor --help} shows it. */
  static CommandLine commandLine(Map<String, String> environment) {
    return commandLine(
        new PrintWriter(System.out, true),
        new PrintWriter(System.err, true),
        environment,
        COMMANDS.values());
  }

  static CommandLine commandLine(
      PrintWriter out,
      PrintWriter err,
      Map<String, String> environment,
      Collection<Class<?>> commands) {
    CommandLine cli = new CommandLine(new Main(environment));
    // Added before the settings below, which apply to the subcommands there are.
    for (Class<?> command : commands) {
      cli.addSubcommand(command);
    }
    cli.setOut(out);
    cli.setErr(err);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    HelpWrapping.install(cli);
    cli.setParameterExceptionHandler(
        (e, a) -> {
          err.println("compactor: invalid arguments: " + e.getMessage());
          err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
          return EXIT_INVALID;
        });
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (System.getenv("COMPACTOR_DEBUG") != null) {
            e.printStackTrace(err);
          }
          if (e instanceof CompactorException ce) {
            err.println("compactor: error: " + ce.getMessage() + advice(ce, commandLine));
            return ce.isInvalidInput() ? EXIT_INVALID : EXIT_FAILURE;
          }
          err.println(
              "compactor: error: unexpected "
                  + e.getClass().getName()
                  + ": "
                  + e.getMessage()
                  + " (set COMPACTOR_DEBUG=1 for the stack trace)");
          return EXIT_FAILURE;
        });
    return cli;
  }

  /**
   * Advice that fits the command that failed: a missing table can be created as the demo table only
   * by a command that has {@code --demo-mode}.
   */
  static String advice(CompactorException e, CommandLine command) {
    if (e.kind() != CompactorException.Kind.TABLE_NOT_FOUND) {
      return "";
    }
    if (command.getCommandSpec().findOption("--demo-mode") != null) {
      return " Or pass --demo-mode=true to create the demo table there.";
    }
    return " "
        + command.getCommandName()
        + " reads an existing table only; 'compactor run --demo-mode=true --table-uri URI'"
        + " creates the demo table there.";
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return EXIT_INVALID;
  }
}
