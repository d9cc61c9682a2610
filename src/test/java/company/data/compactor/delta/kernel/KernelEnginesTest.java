package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.storage.LocalStorage;
import io.delta.kernel.defaults.engine.LoggingMetricsReporter;
import io.delta.kernel.engine.MetricsReporter;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class KernelEnginesTest {

  @Test
  void kernelsLoggingReporter_isLeftOut_onlyWhileItsLineIsNotWritten() {
    MetricsReporter logging = new LoggingMetricsReporter();
    MetricsReporter other = report -> {};
    assertThat(KernelEngines.reporters(List.of(logging, other), false)).containsExactly(other);
    assertThat(KernelEngines.reporters(List.of(logging, other), true))
        .containsExactly(logging, other);
  }

  @Test
  void theEngine_asksTheReportLogger_eachTime() {
    Logger reports = Logger.getLogger(LoggingMetricsReporter.class.getName());
    Level before = reports.getLevel();
    try {
      var engine = KernelEngines.over(new LocalStorage());
      reports.setLevel(Level.WARNING);
      assertThat(engine.getMetricsReporters()).noneMatch(LoggingMetricsReporter.class::isInstance);
      reports.setLevel(Level.INFO);
      assertThat(engine.getMetricsReporters())
          .as("written at INFO (Lambda's log): kernel's reports are logged as before")
          .anyMatch(LoggingMetricsReporter.class::isInstance);
    } finally {
      reports.setLevel(before);
    }
  }
}
