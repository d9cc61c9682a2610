package company.data.compactor.delta.kernel;

import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.engine.fileio.InputFile;
import io.delta.kernel.defaults.engine.fileio.OutputFile;
import io.delta.kernel.defaults.engine.fileio.PositionOutputStream;
import io.delta.kernel.defaults.engine.fileio.SeekableInputStream;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Delta kernel's {@link FileIO} over our {@link Storage} port, so one engine works on local disk
 * and S3 without the Hadoop FileSystem. Commit files ({@code writeAtomically} without overwrite) go
 * through {@link Storage#putIfAbsent}, which makes racing writers of one version conflict.
 */
final class StorageFileIO implements FileIO {

  private final Storage storage;
  private final Map<String, String> conf;

  StorageFileIO(Storage storage, Map<String, String> conf) {
    this.storage = storage;
    this.conf = Map.copyOf(conf);
  }

  @Override
  public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
    List<StoredObject> found = storage.listFrom(filePath);
    return KernelIterators.of(found.stream().map(StorageFileIO::toStatus).toList());
  }

  @Override
  public FileStatus getFileStatus(String path) throws IOException {
    return toStatus(storage.stat(path));
  }

  @Override
  public String resolvePath(String path) {
    return path;
  }

  @Override
  public boolean mkdirs(String path) throws IOException {
    storage.makeDirectories(path);
    return true;
  }

  @Override
  public InputFile newInputFile(String path, long fileSize) {
    return new InputFile() {
      @Override
      public long length() {
        return fileSize;
      }

      @Override
      public String path() {
        return path;
      }

      @Override
      public SeekableInputStream newStream() throws IOException {
        return new StorageSeekableInputStream(storage, path);
      }
    };
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return new OutputFile() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public PositionOutputStream create(boolean atomicWrite) throws IOException {
        // Storage#create is always atomic, which satisfies both modes.
        return new CountingOutputStream(storage.create(path));
      }

      @Override
      public void writeAtomically(CloseableIterator<String> data, boolean overwrite)
          throws IOException {
        byte[] content = joinLines(data);
        if (overwrite) {
          try (OutputStream out = storage.create(path)) {
            out.write(content);
          }
        } else {
          putIfAbsentOrOurs(path, content);
        }
      }
    };
  }

  @Override
  public boolean delete(String path) throws IOException {
    storage.deleteAll(List.of(path));
    return true;
  }

  @Override
  public Optional<String> getConf(String confKey) {
    return Optional.ofNullable(conf.get(confKey));
  }

  @Override
  public void copyFileAtomically(String srcPath, String destPath, boolean overwrite)
      throws IOException {
    byte[] content;
    try (InputStream in = storage.openFrom(srcPath, 0)) {
      content = in.readAllBytes();
    }
    if (overwrite) {
      try (OutputStream out = storage.create(destPath)) {
        out.write(content);
      }
    } else {
      putIfAbsentOrOurs(destPath, content);
    }
  }

  /**
   * Writes {@code content} unless a file is there; a file there holding exactly {@code content} is
   * this write's own earlier attempt (its response was lost), not a conflict.
   */
  private void putIfAbsentOrOurs(String path, byte[] content) throws IOException {
    IOException failure = null;
    try {
      if (storage.putIfAbsent(path, content)) {
        return;
      }
    } catch (IOException e) {
      failure = e;
    }
    byte[] stored;
    try (InputStream in = storage.openFrom(path, 0)) {
      stored = in.readAllBytes();
    } catch (java.io.FileNotFoundException e) {
      if (failure != null) {
        throw failure;
      }
      throw new IOException(
          "writing " + path + " if absent found a file there, which then was gone", e);
    }
    if (!java.util.Arrays.equals(stored, content)) {
      throw new FileAlreadyExistsException(path);
    }
  }

  private static byte[] joinLines(CloseableIterator<String> data) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (data) {
      while (data.hasNext()) {
        buffer.write(data.next().getBytes(StandardCharsets.UTF_8));
        buffer.write('\n');
      }
    }
    return buffer.toByteArray();
  }

  private static FileStatus toStatus(StoredObject object) {
    return FileStatus.of(object.path(), object.sizeBytes(), object.modificationTimeMillis());
  }

  /** Tracks the write position kernel's Parquet writer asks for. */
  private static final class CountingOutputStream extends PositionOutputStream {
    private final OutputStream out;
    private long position;

    CountingOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      position += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
