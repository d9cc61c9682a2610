package company.data.compactor.telemetry;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.MaintenanceReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Appends each run's {@link TelemetryRecord} as one JSON line to a local file, and reads them back;
 * the default off AWS.
 */
public final class JsonLinesTelemetrySink implements TelemetryStore {

  /** File name under the work directory. */
  public static final String DEFAULT_RELATIVE_PATH = ".delta-compactor/telemetry.jsonl";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;

  /** Appends to {@code file}, creating it and its directory when missing. */
  public JsonLinesTelemetrySink(Path file) {
    this.file = file;
  }

  @Override
  public synchronized void record(MaintenanceReport report) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(
          file,
          JSON.writeValueAsString(TelemetryRecord.of(report)) + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw Errors.operationFailed("appending telemetry to " + file, e);
    }
  }

  @Override
  public synchronized List<Map<String, Object>> recent(TableLocation table, int limit) {
    if (!Files.exists(file)) {
      return List.of();
    }
    List<Map<String, Object>> records = new ArrayList<>();
    try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (line.isBlank()) {
          continue;
        }
        Map<String, Object> record =
            JSON.readValue(line, new TypeReference<Map<String, Object>>() {});
        if (table.uri().equals(record.get("table_uri"))) {
          records.add(record);
        }
      }
    } catch (IOException e) {
      throw Errors.operationFailed("reading telemetry from " + file, e);
    }
    records.sort(
        Comparator.comparing(
                (Map<String, Object> r) -> Instant.parse(String.valueOf(r.get("evaluated_at"))))
            .reversed());
    return List.copyOf(records.subList(0, Math.min(limit, records.size())));
  }

  @Override
  public String describe() {
    return file.toString();
  }
}
