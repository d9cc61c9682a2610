package company.data.compactor.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.text.MessageFormat;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * One JSON object per log line, for CloudWatch Logs Insights: {@code timestamp} (ISO-8601 UTC),
 * {@code level}, {@code logger}, {@code message} (its {@code {0}} parameters filled in), {@code
 * thread} and, for an error, {@code error}. Lambda passes lines that are already JSON through
 * unchanged; the EMF metric lines are printed apart and stay EMF. Installed by {@link JsonLogging}
 * when {@code COMPACTOR_LOG_FORMAT=json} (the template sets it).
 */
public final class JsonLogFormatter extends Formatter {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public String format(LogRecord record) {
    ObjectNode line = JSON.createObjectNode();
    line.put("timestamp", record.getInstant().toString());
    line.put("level", record.getLevel().getName());
    line.put("logger", record.getLoggerName());
    line.put("message", message(record));
    line.put("thread", Thread.currentThread().getName());
    if (record.getThrown() != null) {
      StringWriter trace = new StringWriter();
      record.getThrown().printStackTrace(new PrintWriter(trace));
      line.put("error", trace.toString());
    }
    try {
      return JSON.writeValueAsString(line) + System.lineSeparator();
    } catch (JsonProcessingException e) {
      return "{\"level\":\"ERROR\",\"message\":\"unformattable log record\"}"
          + System.lineSeparator();
    }
  }

  private static String message(LogRecord record) {
    String text = record.getMessage();
    Object[] parameters = record.getParameters();
    if (text == null || parameters == null || parameters.length == 0) {
      return text;
    }
    try {
      return MessageFormat.format(text, parameters);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }
}
