package company.data.compactor.lambda;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks that a webhook call comes from a holder of the shared key, by either scheme:
 *
 * <ul>
 *   <li>{@value #KEY_HEADER}: the key itself;
 *   <li>{@value #TIMESTAMP_HEADER} (Unix seconds) and {@value #SIGNATURE_HEADER} ({@code
 *       sha256=<hex>} of HMAC-SHA256 with the key over {@code <timestamp>.<body>}), the timestamp
 *       within {@link #WINDOW} of now, so a captured request cannot be replayed later; inside the
 *       window the webhook remembers each signature ({@link Proof#replayDigest()}) and refuses a
 *       second delivery.
 * </ul>
 *
 * Both comparisons go through {@link ConstantTimeEquality} on equal-length digests, so timing
 * reveals neither the key nor its length. Failures carry no detail for the caller.
 */
final class WebhookAuthenticator {

  static final String KEY_HEADER = "x-delta-compactor-key";
  static final String TIMESTAMP_HEADER = "x-delta-compactor-timestamp";
  static final String SIGNATURE_HEADER = "x-delta-compactor-signature";

  /** How far a signed request's timestamp may be from now, either way. */
  static final Duration WINDOW = Duration.ofMinutes(5);

  /** Byte comparison whose time does not depend on where the inputs differ. */
  @FunctionalInterface
  interface ConstantTimeEquality {
    boolean equal(byte[] a, byte[] b);

    /** The JDK's {@link MessageDigest#isEqual}, constant-time since Java 6u17. */
    ConstantTimeEquality JDK = MessageDigest::isEqual;
  }

  private final byte[] key;
  private final Clock clock;
  private final ConstantTimeEquality equality;

  WebhookAuthenticator(String key, Clock clock, ConstantTimeEquality equality) {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("the webhook key must not be blank");
    }
    this.key = key.getBytes(StandardCharsets.UTF_8);
    this.clock = clock;
    this.equality = equality;
  }

  /**
   * What an authentic request proved.
   *
   * @param replayDigest for a signed request, the hex SHA-256 of its signature: the same request
   *     delivered twice has the same digest; empty for the shared-key scheme, whose every request
   *     carries the key itself and so has nothing to replay beyond it
   * @param validUntil when the signature stops being accepted (its timestamp plus {@link #WINDOW});
   *     until then a replay would authenticate, so the digest must be remembered that long
   */
  record Proof(Optional<String> replayDigest, Optional<Instant> validUntil) {}

  /** Whether {@code request} proves knowledge of the key by either scheme. */
  boolean authenticates(ApiGatewayRequest request) {
    return verify(request).isPresent();
  }

  /** The proof {@code request} carries, empty when it does not authenticate by either scheme. */
  Optional<Proof> verify(ApiGatewayRequest request) {
    Optional<String> presented = request.header(KEY_HEADER);
    if (presented.isPresent()) {
      boolean equal =
          equality.equal(sha256(key), sha256(presented.get().getBytes(StandardCharsets.UTF_8)));
      return equal ? Optional.of(new Proof(Optional.empty(), Optional.empty())) : Optional.empty();
    }
    Optional<String> timestamp = request.header(TIMESTAMP_HEADER);
    Optional<String> signature = request.header(SIGNATURE_HEADER);
    if (timestamp.isEmpty() || signature.isEmpty() || !withinWindow(timestamp.get())) {
      return Optional.empty();
    }
    Optional<byte[]> given = parseSignature(signature.get());
    byte[] expected = sign(timestamp.get().strip(), request.body());
    // Equal lengths always: a malformed signature is compared as zeros, so it costs the same.
    if (!(equality.equal(expected, given.orElse(new byte[expected.length])) && given.isPresent())) {
      return Optional.empty();
    }
    Instant signedAt = Instant.ofEpochSecond(Long.parseLong(timestamp.get().strip()));
    return Optional.of(
        new Proof(
            Optional.of(HexFormat.of().formatHex(sha256(expected))),
            Optional.of(signedAt.plus(WINDOW))));
  }

  /** {@code sha256=<hex>} of HMAC-SHA256({@code key}, {@code timestamp + "." + body}). */
  static String signature(String key, String timestamp, String body) {
    return "sha256="
        + HexFormat.of().formatHex(hmac(key.getBytes(StandardCharsets.UTF_8), timestamp, body));
  }

  private byte[] sign(String timestamp, String body) {
    return hmac(key, timestamp, body);
  }

  private boolean withinWindow(String timestamp) {
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      return false;
    }
    // Compared as seconds, never turned into an Instant: 9223372036854775807 is a bad timestamp,
    // not a DateTimeException.
    long now = clock.instant().getEpochSecond();
    return seconds >= now - WINDOW.toSeconds() && seconds <= now + WINDOW.toSeconds();
  }

  private static Optional<byte[]> parseSignature(String header) {
    String value = header.strip().toLowerCase(Locale.ROOT);
    if (!value.startsWith("sha256=") || value.length() != "sha256=".length() + 64) {
      return Optional.empty();
    }
    try {
      return Optional.of(HexFormat.of().parseHex(value.substring("sha256=".length())));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static byte[] hmac(byte[] key, String timestamp, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is required of every JDK", e);
    }
  }

  private static byte[] sha256(byte[] value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }
}
