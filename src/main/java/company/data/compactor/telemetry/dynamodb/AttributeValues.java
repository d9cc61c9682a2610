package company.data.compactor.telemetry.dynamodb;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * JSON values (as Jackson reads them: maps, lists, strings, numbers, booleans, null) to DynamoDB
 * attribute values and back: numbers stay numbers ({@code N}), objects become maps ({@code M}),
 * arrays lists ({@code L}).
 */
final class AttributeValues {

  private AttributeValues() {}

  static AttributeValue of(Object value) {
    if (value == null) {
      return AttributeValue.fromNul(true);
    }
    if (value instanceof String s) {
      return AttributeValue.fromS(s);
    }
    if (value instanceof Boolean b) {
      return AttributeValue.fromBool(b);
    }
    if (value instanceof Number n) {
      return AttributeValue.fromN(number(n));
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, AttributeValue> m = new LinkedHashMap<>();
      map.forEach((k, v) -> m.put(String.valueOf(k), of(v)));
      return AttributeValue.fromM(m);
    }
    if (value instanceof List<?> list) {
      return AttributeValue.fromL(list.stream().map(AttributeValues::of).toList());
    }
    return AttributeValue.fromS(value.toString());
  }

  static Object value(AttributeValue attribute) {
    if (attribute.s() != null) {
      return attribute.s();
    }
    if (attribute.n() != null) {
      BigDecimal n = new BigDecimal(attribute.n());
      if (n.scale() <= 0 && n.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0) {
        return n.longValueExact();
      }
      return n.doubleValue();
    }
    if (attribute.bool() != null) {
      return attribute.bool();
    }
    if (Boolean.TRUE.equals(attribute.nul())) {
      return null;
    }
    if (attribute.hasM()) {
      Map<String, Object> m = new LinkedHashMap<>();
      attribute.m().forEach((k, v) -> m.put(k, value(v)));
      return m;
    }
    if (attribute.hasL()) {
      List<Object> l = new ArrayList<>();
      attribute.l().forEach(v -> l.add(value(v)));
      return l;
    }
    return null;
  }

  private static String number(Number n) {
    if (n instanceof Double d && (d.isNaN() || d.isInfinite())
        || n instanceof Float f && (f.isNaN() || f.isInfinite())) {
      throw new IllegalArgumentException("DynamoDB numbers must be finite: " + n);
    }
    if (n instanceof Double || n instanceof Float) {
      return BigDecimal.valueOf(n.doubleValue()).stripTrailingZeros().toPlainString();
    }
    return n.toString();
  }
}
