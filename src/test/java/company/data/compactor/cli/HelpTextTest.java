package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Every {@code --help} wraps between words, never inside a path, URI or flag. */
class HelpTextTest {

  private static String help(String... command) {
    StringWriter out = new StringWriter();
    List<String> args = new ArrayList<>(List.of(command));
    args.add("--help");
    int code =
        Main.execute(
            args.toArray(String[]::new),
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true),
            Map.of());
    assertThat(code).isZero();
    return out.toString();
  }

  /** The words of every description the command's help shows. */
  private static List<String> words(CommandSpec spec) {
    List<String> text = new ArrayList<>(List.of(spec.usageMessage().description()));
    text.addAll(List.of(spec.usageMessage().footer()));
    for (OptionSpec option : spec.options()) {
      text.addAll(List.of(option.description()));
    }
    List<String> words = new ArrayList<>();
    for (String line : text) {
      for (String word : line.split("\\s+")) {
        if (!word.isEmpty() && !word.contains("%") && !word.contains("$")) {
          words.add(word);
        }
      }
    }
    return words;
  }

  @Test
  void everyHelp_keepsEveryWordOnOneLine() {
    CommandLine root = Main.commandLine(Map.of());
    List<String> broken = new ArrayList<>();
    List<CommandLine> commands = new ArrayList<>(List.of(root));
    commands.addAll(root.getSubcommands().values());
    for (CommandLine command : commands) {
      String name = command.getCommandName();
      String text = command == root ? help() : help(name);
      List<String> lines = text.lines().map(String::strip).toList();
      for (String word : words(command.getCommandSpec())) {
        if (word.length() > 50) {
          continue; // longer than a help column: it must wrap somewhere
        }
        boolean whole =
            lines.stream()
                .anyMatch(
                    l ->
                        l.equals(word)
                            || l.startsWith(word + " ")
                            || l.endsWith(" " + word)
                            || l.contains(" " + word + " "));
        if (!whole) {
          broken.add(name + ": " + word);
        }
      }
    }
    assertThat(broken).isEmpty();
  }
}
