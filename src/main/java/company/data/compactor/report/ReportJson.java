package company.data.compactor.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The report's JSON form: snake-case field names, in declaration order. */
public final class ReportJson {

  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .setSerializationInclusion(JsonInclude.Include.ALWAYS);

  private ReportJson() {}

  private static final java.util.concurrent.atomic.AtomicBoolean PREPARING =
      new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Builds the mapper's serializers of the report (and of the map it converts to) on a thread of
   * its own, once per process, while a run does its work, then runs {@code alsoPrepare} there (the
   * telemetry record's mapper): Jackson introspects the report's records on first use, and loads
   * the classes of a conversion to a map on the first one, ~35 ms of a short run's end otherwise
   * (the demo's page and telemetry). Nothing here depends on the run: a part with no values (no
   * phase timed) is converted.
   */
  public static void prepareInBackground(Runnable alsoPrepare) {
    if (PREPARING.getAndSet(true)) {
      return;
    }
    Thread thread =
        new Thread(
            () -> {
              MAPPER.canSerialize(MaintenanceReport.class);
              MAPPER.canDeserialize(MAPPER.constructType(java.util.LinkedHashMap.class));
              asMap(PhaseTimings.NONE);
              alsoPrepare.run();
            },
            "report-json-ahead");
    thread.setDaemon(true);
    thread.start();
  }

  /** Indented JSON, for people and {@code --json}. */
  public static String pretty(MaintenanceReport report) {
    try {
      return MAPPER.writer(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
    } catch (JsonProcessingException e) {
      // Every field is a plain value; failing here is a programming error.
      throw new IllegalStateException("report could not be serialised", e);
    }
  }

  /**
   * The report, or a record of it ({@code timings_ms}'s, say), as the JSON object tree it is in the
   * report's JSON: the same names, for frameworks that serialise maps.
   */
  @SuppressWarnings("unchecked")
  public static java.util.Map<String, Object> asMap(Record report) {
    return MAPPER.convertValue(report, java.util.LinkedHashMap.class);
  }
}
