package company.data.compactor.vacuum;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Delta's interval grammar for table properties such as {@code delta.deletedFileRetentionDuration},
 * as Spark's {@code CalendarInterval} parses them and Delta accepts them: an optional {@code
 * interval} keyword, then one or more {@code [+|-]<n> <unit>} pairs, case-insensitive, separated by
 * whitespace; units {@code week}, {@code day}, {@code hour}, {@code minute}, {@code second}, {@code
 * millisecond}, {@code microsecond}, each also plural; only seconds may have a fraction (up to 9
 * digits, truncated to microseconds). Months and years are refused, as Delta refuses them for these
 * properties, and so is a negative total. Pure; never throws anything but {@link NotAnInterval}.
 *
 * <p>The sum is exact (arbitrary precision) and saturates at {@link Retention#LONGEST} instead of
 * overflowing: a huge value means "keep everything".
 */
public final class DeltaInterval {

  /** A value that is not a Delta interval; the message says why, for people. */
  public static final class NotAnInterval extends Exception {
    NotAnInterval(String why) {
      super(why);
    }
  }

  private static final Pattern NUMBER = Pattern.compile("([+-]?)(\\d+)(?:\\.(\\d{1,9}))?");
  private static final Pattern UNIT = Pattern.compile("([a-z]+?)s?");
  private static final Map<String, Long> MICROS_PER =
      Map.of(
          "week", 7 * 86_400_000_000L,
          "day", 86_400_000_000L,
          "hour", 3_600_000_000L,
          "minute", 60_000_000L,
          "second", 1_000_000L,
          "millisecond", 1_000L,
          "microsecond", 1L);
  private static final BigInteger MAX_MICROS = BigInteger.valueOf(Long.MAX_VALUE);

  private DeltaInterval() {}

  /** Parses {@code text}; the result is never negative and at most {@link Retention#LONGEST}. */
  public static Duration parse(String text) throws NotAnInterval {
    String[] tokens = text.trim().toLowerCase(Locale.ROOT).split("\\s+");
    int i = tokens.length > 0 && tokens[0].equals("interval") ? 1 : 0;
    if (tokens.length == i || tokens[i].isEmpty()) {
      throw new NotAnInterval("no <number> <unit> pair");
    }
    BigInteger total = BigInteger.ZERO;
    while (i < tokens.length) {
      String value = tokens[i++];
      if ((value.equals("+") || value.equals("-")) && i < tokens.length) {
        value = value + tokens[i++];
      }
      Matcher number = NUMBER.matcher(value);
      if (!number.matches()) {
        throw new NotAnInterval("invalid value '" + value + "'");
      }
      if (i == tokens.length) {
        throw new NotAnInterval("a number without a unit");
      }
      String unitToken = tokens[i++];
      total = total.add(micros(number, unitToken));
    }
    if (total.signum() < 0) {
      throw new NotAnInterval("a negative interval");
    }
    return total.compareTo(MAX_MICROS) > 0
        ? Retention.LONGEST
        : Duration.of(total.longValueExact(), ChronoUnit.MICROS);
  }

  private static BigInteger micros(Matcher number, String unitToken) throws NotAnInterval {
    Matcher unit = UNIT.matcher(unitToken);
    String name = unit.matches() ? unit.group(1) : unitToken;
    if (name.equals("month") || name.equals("year")) {
      throw new NotAnInterval(name + " is not supported");
    }
    Long per = MICROS_PER.get(name);
    if (per == null) {
      throw new NotAnInterval("invalid unit '" + unitToken + "'");
    }
    String fraction = number.group(3);
    if (fraction != null && !name.equals("second")) {
      throw new NotAnInterval("'" + unitToken + "' cannot have a fractional part");
    }
    BigDecimal magnitude =
        new BigDecimal(number.group(2) + (fraction == null ? "" : "." + fraction));
    BigInteger micros = magnitude.multiply(BigDecimal.valueOf(per)).toBigInteger();
    return number.group(1).equals("-") ? micros.negate() : micros;
  }
}
