package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LogLines} against what kernel's default JSON reader reads ({@code BufferedReader} over a
 * UTF-8 {@code InputStreamReader}): the same lines, the same text, for bytes chosen to trip a
 * splitter and a decoder (every terminator, malformed and cut UTF-8 sequences, byte-order marks,
 * NUL), read whole and a few bytes at a time, and lines longer than its buffer.
 */
class LogLinesTest {

  /** Bytes that split lines, open multi-byte sequences, continue them, or are never valid. */
  private static final byte[] ALPHABET = {
    'a',
    '{',
    '"',
    '}',
    '\r',
    '\n',
    0,
    (byte) 0xC3,
    (byte) 0xA9,
    (byte) 0xE2,
    (byte) 0x82,
    (byte) 0xAC,
    (byte) 0xF0,
    (byte) 0x9F,
    (byte) 0x98,
    (byte) 0x80,
    (byte) 0xFF,
    (byte) 0xEF,
    (byte) 0xBB,
    (byte) 0xBF,
    (byte) 0xED,
    (byte) 0xA0
  };

  @Test
  void randomBytes_splitAndDecodeAsTheDefaultsReader() throws IOException {
    Random random = new Random(18);
    for (int round = 0; round < 3_000; round++) {
      byte[] bytes = new byte[random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      int chunk = 1 + random.nextInt(7);
      assertThat(lines(new ByteArrayInputStream(bytes)))
          .as("%s", Arrays.toString(bytes))
          .isEqualTo(defaultLines(bytes))
          .isEqualTo(lines(new Trickle(bytes, chunk)));
    }
  }

  @Test
  void everyTerminator_andNoLineAfterTheLast() throws IOException {
    byte[] bytes = "a\r\nb\rc\n\nd\r\r\ne".getBytes(StandardCharsets.US_ASCII);
    assertThat(lines(new ByteArrayInputStream(bytes)))
        .containsExactly("a", "b", "c", "", "d", "", "e")
        .isEqualTo(defaultLines(bytes));
    assertThat(lines(new ByteArrayInputStream("x\n".getBytes(StandardCharsets.US_ASCII))))
        .containsExactly("x");
    assertThat(lines(new ByteArrayInputStream(new byte[0]))).isEmpty();
  }

  @Test
  void aLineLongerThanTheBuffer_withItsTerminatorSplitAcrossReads() throws IOException {
    byte[] bytes = new byte[200_003];
    Arrays.fill(bytes, (byte) 'x');
    int cr = 64 * 1024 - 1; // the last byte of the first read, its \n the first of the next
    bytes[cr] = '\r';
    bytes[cr + 1] = '\n';
    bytes[150_000] = (byte) 0xC3; // a cut sequence deep in the second line
    bytes[200_002] = '\n';
    List<String> lines = lines(new ByteArrayInputStream(bytes));
    assertThat(lines).isEqualTo(defaultLines(bytes)).hasSize(2);
    assertThat(lines.get(0)).hasSize(cr);
  }

  @Test
  void asciiIsOnlyPlainAscii() throws IOException {
    LogLines lines =
        new LogLines(
            new ByteArrayInputStream(
                new byte[] {'{', '}', '\n', '{', 0, '}', '\n', '{', (byte) 0xC3, (byte) 0xA9}));
    List<Boolean> ascii = new ArrayList<>();
    while (lines.next()) {
      ascii.add(lines.ascii());
    }
    assertThat(ascii).containsExactly(true, false, false);
  }

  private static List<String> lines(InputStream in) throws IOException {
    List<String> found = new ArrayList<>();
    try (LogLines lines = new LogLines(in)) {
      while (lines.next()) {
        String text = lines.text();
        if (lines.ascii()) {
          assertThat(new String(lines.bytes(), 0, lines.length(), StandardCharsets.UTF_8))
              .isEqualTo(text);
        }
        found.add(text);
      }
    }
    return found;
  }

  private static List<String> defaultLines(byte[] bytes) throws IOException {
    List<String> found = new ArrayList<>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        found.add(line);
      }
    }
    return found;
  }

  /** A stream that gives at most {@code chunk} bytes per read, as a slow store may. */
  private static final class Trickle extends FilterInputStream {
    private final int chunk;

    Trickle(byte[] bytes, int chunk) {
      super(new ByteArrayInputStream(bytes));
      this.chunk = chunk;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return super.read(b, off, Math.min(len, chunk));
    }
  }
}
