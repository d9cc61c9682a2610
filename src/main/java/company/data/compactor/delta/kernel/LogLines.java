package company.data.compactor.delta.kernel;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a log file as bytes, split where kernel's default JSON reader splits them ({@link
 * java.io.BufferedReader#readLine}: at {@code \n}, {@code \r} or {@code \r\n}; no line after a
 * final terminator), without decoding them. A line of plain ASCII is the same text either way, so
 * the caller can hand its bytes to a byte-level parser; any other line is decoded by {@link
 * #text()} exactly as the default's reader decodes it (UTF-8, a malformed sequence replaced by
 * U+FFFD, with the terminator that followed it as context). Reads {@code in} to its end; the caller
 * closes this, which closes {@code in}.
 */
final class LogLines implements Closeable {

  private static final int BUFFER = 64 * 1024;

  private final InputStream in;
  private final byte[] buffer = new byte[BUFFER];
  private int start;
  private int end;

  /** The last line ended with {@code \r}: a {@code \n} right after it belongs to it. */
  private boolean skipLineFeed;

  /** The current line, then its terminator (when it had one) at {@code line[length]}. */
  private byte[] line = new byte[8192];

  private int length;
  private boolean terminated;

  /** Whether the current line is all ASCII from 0x01 to 0x7F. */
  private boolean ascii;

  LogLines(InputStream in) {
    this.in = in;
  }

  /** Moves to the next line; false at the end of the stream. */
  boolean next() throws IOException {
    length = 0;
    ascii = true;
    terminated = false;
    boolean started = false;
    while (true) {
      if (start == end && !fill()) {
        return started;
      }
      if (skipLineFeed) {
        skipLineFeed = false;
        if (buffer[start] == '\n') {
          start++;
          continue;
        }
      }
      started = true;
      int i = start;
      while (i < end) {
        byte b = buffer[i];
        if (b == '\n' || b == '\r') {
          break;
        }
        if (b <= 0) {
          ascii = false;
        }
        i++;
      }
      append(start, i - start + (i < end ? 1 : 0));
      if (i < end) {
        length--;
        terminated = true;
        skipLineFeed = buffer[i] == '\r';
        start = i + 1;
        return true;
      }
      start = end;
    }
  }

  /** The current line's bytes, from 0 to {@link #length()}; valid until the next {@link #next}. */
  byte[] bytes() {
    return line;
  }

  int length() {
    return length;
  }

  /** Whether every byte of the current line is ASCII and none is NUL. */
  boolean ascii() {
    return ascii;
  }

  /** The current line as the default's reader gives it. */
  String text() {
    if (ascii) {
      return new String(line, 0, length, StandardCharsets.US_ASCII);
    }
    // Decoded with what followed it, as the reader's decoder saw it: a malformed sequence at the
    // line's end is replaced the same way.
    String decoded;
    try {
      decoded =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPLACE)
              .onUnmappableCharacter(CodingErrorAction.REPLACE)
              .decode(ByteBuffer.wrap(line, 0, length + (terminated ? 1 : 0)))
              .toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new IllegalStateException("a replacing decoder refused input", e);
    }
    return terminated ? decoded.substring(0, decoded.length() - 1) : decoded;
  }

  private void append(int from, int count) {
    if (length + count > line.length) {
      line = Arrays.copyOf(line, Math.max(line.length * 2, length + count));
    }
    System.arraycopy(buffer, from, line, length, count);
    length += count;
  }

  private boolean fill() throws IOException {
    int read = in.read(buffer, 0, buffer.length);
    if (read == 0) {
      // The default's reader refuses a stream that reads nothing, rather than ask it forever.
      throw new IOException("Underlying input stream returned zero bytes");
    }
    start = 0;
    end = Math.max(read, 0);
    return read > 0;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
