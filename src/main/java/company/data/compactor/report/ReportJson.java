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

  /** Indented JSON, for people and {@code --json}. */
  public static String pretty(MaintenanceReport report) {
    try {
      return MAPPER.writer(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
    } catch (JsonProcessingException e) {
      // Every field is a plain value; failing here is a programming error.
      throw new IllegalStateException("report could not be serialised", e);
    }
  }

  /** The report as a JSON object tree with the same names, for frameworks that serialise maps. */
  @SuppressWarnings("unchecked")
  public static java.util.Map<String, Object> asMap(MaintenanceReport report) {
    return MAPPER.convertValue(report, java.util.LinkedHashMap.class);
  }
}
