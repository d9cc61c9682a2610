package company.data.compactor.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Wraps the description and footer of every command's help between words only. Picocli breaks lines
 * wherever {@link java.text.BreakIterator} allows, which includes after {@code /}, {@code .} and
 * {@code -}, so a path such as {@code <work-dir>/.delta-compactor/telemetry.jsonl} or a property
 * such as {@code delta.logRetentionDuration} was split across lines.
 */
final class HelpWrapping {

  private HelpWrapping() {}

  /** Installs the word-only wrapping on {@code root} and every subcommand. */
  static void install(CommandLine root) {
    List<CommandLine> all = new ArrayList<>(List.of(root));
    all.addAll(root.getSubcommands().values());
    for (CommandLine command : all) {
      command
          .getHelpSectionMap()
          .put(
              UsageMessageSpec.SECTION_KEY_DESCRIPTION,
              help -> wrap(help.commandSpec().usageMessage().description(), width(help)));
      command
          .getHelpSectionMap()
          .put(
              UsageMessageSpec.SECTION_KEY_FOOTER,
              help -> wrap(help.commandSpec().usageMessage().footer(), width(help)));
    }
  }

  private static int width(CommandLine.Help help) {
    return help.commandSpec().usageMessage().width();
  }

  /**
   * Each paragraph (one array element; an empty one is a blank line) filled to {@code width}
   * columns, broken at spaces only; a word longer than a line stands alone on its line.
   */
  static String wrap(String[] paragraphs, int width) {
    StringBuilder out = new StringBuilder();
    for (String paragraph : paragraphs) {
      StringBuilder line = new StringBuilder();
      for (String word : paragraph.strip().split(" +")) {
        if (word.isEmpty()) {
          continue;
        }
        if (line.length() > 0 && line.length() + 1 + word.length() > width) {
          out.append(line).append(System.lineSeparator());
          line.setLength(0);
        }
        if (line.length() > 0) {
          line.append(' ');
        }
        line.append(word);
      }
      out.append(line).append(System.lineSeparator());
    }
    return out.toString();
  }
}
