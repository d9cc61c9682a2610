package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * A command line naming a table command first gets a model of that command alone (picocli's model
 * of all seven costs ~37 ms more of every start), and answers exactly as the whole model does: the
 * same output, errors and exit code.
 */
class CommandModelTest {

  @TempDir Path work;

  @Test
  void everyCommand_isNamedAsItsOwnAnnotationNamesIt() {
    Main.COMMANDS.forEach(
        (name, command) ->
            assertThat(command.getAnnotation(Command.class).name()).as(name).isEqualTo(name));
    assertThat(Main.commandLine(Map.of()).getSubcommands().keySet())
        .containsExactlyElementsOf(Main.COMMANDS.keySet());
  }

  @Test
  void aTableCommandFirst_getsItsModelAlone_anythingElseTheWholeModel() {
    assertThat(Main.commandsFor(new String[] {"run", "--json"})).containsExactly(RunCommand.class);
    assertThat(Main.commandsFor(new String[] {"cleanup-log"}))
        .containsExactly(CleanupLogCommand.class);
    for (String[] args :
        List.of(
            new String[] {},
            new String[] {"--help"},
            new String[] {"help", "run"},
            new String[] {"help", "--help"},
            new String[] {"runn"},
            new String[] {"RUN"},
            new String[] {"@args.txt"},
            new String[] {"--", "run"})) {
      assertThat(Main.commandsFor(args)).as(String.join(" ", args)).hasSize(7);
    }
  }

  @Test
  void theModelOfOneCommand_answersAsTheWholeModel() {
    String missing = work.resolve("no-table").toString();
    List<String[]> cases = new ArrayList<>();
    for (String name : Main.COMMANDS.keySet()) {
      if (name.equals("help")) {
        continue;
      }
      cases.add(new String[] {name, "--help"});
      cases.add(new String[] {name, "--no-such-option"});
    }
    cases.add(new String[] {"run", "--demo-mode=false", "--table-uri", missing});
    cases.add(new String[] {"run", "--demo-mode=maybe"});
    cases.add(new String[] {"inspect", "--table-uri", missing});
    cases.add(new String[] {"plan", "--table-uri", missing, "--work-dir", work.toString()});
    cases.add(new String[] {"vacuum", "--table-uri", missing});
    cases.add(new String[] {"cleanup-log", "--table-uri", missing});
    for (String[] args : cases) {
      Answer whole = answer(args, Main.COMMANDS.values());
      Answer alone = answer(args, Main.commandsFor(args));

      assertThat(Main.commandsFor(args)).as(String.join(" ", args)).hasSize(1);
      assertThat(alone).as(String.join(" ", args)).isEqualTo(whole);
    }
    // And what both answer is the command line's own: its exit codes and messages.
    Answer unknown = answer(new String[] {"run", "--no-such-option"}, List.of(RunCommand.class));
    assertThat(unknown.code()).isEqualTo(Main.EXIT_INVALID);
    assertThat(unknown.err())
        .startsWith("compactor: invalid arguments: Unknown option: '--no-such-option'")
        .contains("Try 'compactor run --help'.");
    Answer help = answer(new String[] {"inspect", "--help"}, List.of(InspectCommand.class));
    assertThat(help.code()).isZero();
    assertThat(help.out()).startsWith("Usage: compactor inspect ");
    Answer missingTable =
        answer(
            new String[] {"inspect", "--table-uri", work.resolve("no-table").toString()},
            List.of(InspectCommand.class));
    assertThat(missingTable.code()).isEqualTo(Main.EXIT_FAILURE);
    assertThat(missingTable.err())
        .startsWith("compactor: error: ")
        .endsWith(
            " inspect reads an existing table only; 'compactor run --demo-mode=true --table-uri"
                + " URI' creates the demo table there."
                + System.lineSeparator());
  }

  private record Answer(int code, String out, String err) {}

  private static Answer answer(String[] args, java.util.Collection<Class<?>> commands) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli =
        Main.commandLine(
            new PrintWriter(out, true), new PrintWriter(err, true), Map.of(), commands);
    int code = cli.execute(args);
    return new Answer(code, out.toString(), err.toString());
  }
}
