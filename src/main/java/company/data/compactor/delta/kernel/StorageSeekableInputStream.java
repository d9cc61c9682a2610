package company.data.compactor.delta.kernel;

import company.data.compactor.storage.Storage;
import io.delta.kernel.defaults.engine.fileio.SeekableInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A seekable stream over {@link Storage#openFrom}: a seek closes the current stream and the next
 * read opens one at the new position (one ranged request on S3), so Parquet footer reads do not
 * download whole files.
 */
final class StorageSeekableInputStream extends SeekableInputStream {

  private final Storage storage;
  private final String path;
  private InputStream current;
  private long position;

  StorageSeekableInputStream(Storage storage, String path) throws IOException {
    this.storage = storage;
    this.path = path;
    // Fail fast with FileNotFoundException, as kernel expects, instead of at the first read.
    this.current = storage.openFrom(path, 0);
  }

  private InputStream stream() throws IOException {
    if (current == null) {
      current = storage.openFrom(path, position);
    }
    return current;
  }

  @Override
  public int read() throws IOException {
    int b = stream().read();
    if (b >= 0) {
      position++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = stream().read(b, off, len);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  @Override
  public long getPos() {
    return position;
  }

  @Override
  public void seek(long newPos) throws IOException {
    if (newPos == position) {
      return;
    }
    if (current != null) {
      current.close();
      current = null;
    }
    position = newPos;
  }

  @Override
  public void readFully(byte[] b, int off, int len) throws IOException {
    int done = 0;
    while (done < len) {
      int n = read(b, off + done, len - done);
      if (n < 0) {
        throw new EOFException(
            "Reached the end of " + path + " after " + done + " of " + len + " bytes");
      }
      done += n;
    }
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
