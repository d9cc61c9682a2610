package company.data.compactor.cli;

import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import picocli.CommandLine.Model.CommandSpec;

/** Where a command's result goes: report on stdout (JSON or text), summary on stderr. */
final class Output {

  private Output() {}

  static void print(CommandSpec spec, CommonOptions common, MaintenanceReport report) {
    if (common.json) {
      spec.commandLine().getOut().println(ReportJson.pretty(report));
    } else {
      spec.commandLine().getOut().print(ReportText.render(report));
    }
    spec.commandLine().getOut().flush();
    spec.commandLine().getErr().println(report.summary());
    spec.commandLine().getErr().flush();
  }
}
