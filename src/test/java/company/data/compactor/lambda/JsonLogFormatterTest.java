package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;
import org.junit.jupiter.api.Test;

/** Structured JSON log lines (COMPACTOR_LOG_FORMAT=json in Lambda). */
class JsonLogFormatterTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aRecord_isOneJsonObject_withItsParametersFilledIn() throws Exception {
    LogRecord record =
        new LogRecord(Level.INFO, "fan-out item done: table={0} item={1} status=\"{2}\"");
    record.setParameters(new Object[] {"s3://b/t", 2, "committed"});
    record.setLoggerName("company.data.compactor.pipeline.FanOutPipeline");
    record.setInstant(Instant.parse("2026-12-01T02:00:00Z"));

    String line = new JsonLogFormatter().format(record);

    assertThat(line).endsWith(System.lineSeparator()).doesNotContain("\n{");
    JsonNode node = JSON.readTree(line);
    assertThat(node.get("timestamp").asText()).isEqualTo("2026-12-01T02:00:00Z");
    assertThat(node.get("level").asText()).isEqualTo("INFO");
    assertThat(node.get("logger").asText())
        .isEqualTo("company.data.compactor.pipeline.FanOutPipeline");
    assertThat(node.get("message").asText())
        .isEqualTo("fan-out item done: table=s3://b/t item=2 status=\"committed\"");
    assertThat(node.has("error")).isFalse();
  }

  @Test
  void anError_carriesItsStackTrace_inOneLine() throws Exception {
    LogRecord record = new LogRecord(Level.SEVERE, "run failed");
    record.setThrown(new IllegalStateException("boom"));

    String line = new JsonLogFormatter().format(record);

    assertThat(line.strip()).doesNotContain("\n");
    assertThat(JSON.readTree(line).get("error").asText())
        .startsWith("java.lang.IllegalStateException: boom");
  }

  @Test
  void install_setsTheFormatterOnTheLoggersHandlers() throws Exception {
    Logger logger = Logger.getLogger("json-logging-test-" + System.nanoTime());
    logger.setUseParentHandlers(false);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StreamHandler handler = new StreamHandler(out, new java.util.logging.SimpleFormatter());
    logger.addHandler(handler);

    assertThat(JsonLogging.install(logger)).isEqualTo(1);
    logger.info("hello {0}");
    handler.flush();

    assertThat(JSON.readTree(out.toString(StandardCharsets.UTF_8)).get("message").asText())
        .isEqualTo("hello {0}");
  }
}
