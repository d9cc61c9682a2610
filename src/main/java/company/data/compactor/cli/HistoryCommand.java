package company.data.compactor.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.model.TableLocation;
import company.data.compactor.telemetry.BlueprintRecord;
import company.data.compactor.telemetry.TelemetryStore;
import company.data.compactor.wiring.Wiring;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code compactor history}: past runs of a table from the configured telemetry store. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Show a table's past runs, newest first, from the telemetry store: the DynamoDB table "
          + "COMPACTOR_TELEMETRY_TABLE when set, else <work-dir>/.delta-compactor/telemetry.jsonl. "
          + "Reads only."
    })
final class HistoryCommand implements Callable<Integer> {

  static final int DEFAULT_LIMIT = 20;

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;
  @Mixin private ExistingTableFlag table;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Most recent runs to show (1-1000). Default: " + DEFAULT_LIMIT)
  int limit = DEFAULT_LIMIT;

  @Override
  public Integer call() throws JsonProcessingException {
    if (limit < 1 || limit > 1000) {
      throw Errors.invalidRequest(
          List.of(new Violation("limit", Integer.toString(limit), "must be between 1 and 1000")));
    }
    TableLocation location = CliInputs.admit(main, common, table.inputs()).location();
    TelemetryStore store = Wiring.telemetry(common.workDir(), main.environment());
    List<Map<String, Object>> runs = store.recent(location, limit);
    PrintWriter out = spec.commandLine().getOut();
    if (common.json) {
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(runs));
    } else {
      out.print(render(location, store, runs));
    }
    out.flush();
    spec.commandLine()
        .getErr()
        .println(runs.size() + " run(s) of " + location + " from " + store.describe());
    spec.commandLine().getErr().flush();
    return Main.EXIT_OK;
  }

  static String render(
      TableLocation location, TelemetryStore store, List<Map<String, Object>> runs) {
    StringBuilder text = new StringBuilder();
    text.append("History of ")
        .append(location)
        .append(" (newest first, from ")
        .append(store.describe())
        .append(")\n");
    if (runs.isEmpty()) {
      return text.append("no runs recorded\n").toString();
    }
    text.append(
        String.format(
            Locale.ROOT,
            "%-30s %-8s %-36s %7s %7s %9s %11s %12s %17s%n",
            "evaluated_at",
            "command",
            "execution_id",
            "files",
            "small%",
            "compacted",
            "files_after",
            "vacuum c/d",
            "latency ms"));
    for (Map<String, Object> run : runs) {
      text.append(
          String.format(
              Locale.ROOT,
              "%-30s %-8s %-36s %7s %7s %9s %11s %12s %17s%n",
              run.get("evaluated_at"),
              run.get("command"),
              run.get("execution_id"),
              value(run, "total_files_before"),
              value(run, "small_file_ratio_pct"),
              value(run, "compaction_executed"),
              value(run, "files_after"),
              value(run, "vacuum_candidate_files") + "/" + value(run, "vacuum_deleted_files"),
              latency(run)));
    }
    return text.toString();
  }

  /**
   * Read latency before -> after, or the one figure measured, or "-" when the run measured none
   * (vacuum, log cleanup).
   */
  static String latency(Map<String, Object> run) {
    String pre = value(run, "read_latency_pre_ms");
    String post = value(run, "read_latency_post_ms");
    if (post.equals("-")) {
      return pre;
    }
    return pre + "->" + post;
  }

  /** A blueprint field of a record of either form, as a column shows it. */
  private static String value(Map<String, Object> run, String field) {
    Object value = BlueprintRecord.read(run, field);
    if (value == null) {
      return "-";
    }
    if (value instanceof Double d) {
      return String.format(Locale.ROOT, "%.1f", d);
    }
    return value.toString();
  }
}
