package company.data.compactor.storage;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An output stream into a local buffer file that is published (moved into place, uploaded) once, on
 * close, and then deleted: what {@link Storage#create} promises, for every implementation.
 */
public final class PublishOnClose extends FilterOutputStream {

  /** Makes the buffered content visible at its destination. */
  @FunctionalInterface
  public interface Publisher {
    void publish(Path buffer) throws IOException;
  }

  private final Path buffer;
  private final Publisher publisher;
  private boolean closed;

  /** Opens {@code buffer} for writing; {@code publisher} runs on close. */
  public PublishOnClose(Path buffer, Publisher publisher) throws IOException {
    super(Files.newOutputStream(buffer));
    this.buffer = buffer;
    this.publisher = publisher;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
      publisher.publish(buffer);
    } finally {
      Files.deleteIfExists(buffer);
    }
  }
}
