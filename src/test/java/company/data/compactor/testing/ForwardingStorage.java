package company.data.compactor.testing;

import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Storage that forwards every call; tests override one method to inject a fault. */
public abstract class ForwardingStorage implements Storage {

  private final Storage delegate;

  protected ForwardingStorage(Storage delegate) {
    this.delegate = delegate;
  }

  @Override
  public List<StoredObject> listFrom(String path) throws IOException {
    return delegate.listFrom(path);
  }

  @Override
  public List<StoredObject> listRecursively(String prefix) throws IOException {
    return delegate.listRecursively(prefix);
  }

  @Override
  public StoredObject stat(String path) throws IOException {
    return delegate.stat(path);
  }

  @Override
  public InputStream openFrom(String path, long offset) throws IOException {
    return delegate.openFrom(path, offset);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    return delegate.create(path);
  }

  @Override
  public boolean putIfAbsent(String path, byte[] content) throws IOException {
    return delegate.putIfAbsent(path, content);
  }

  @Override
  public void makeDirectories(String path) throws IOException {
    delegate.makeDirectories(path);
  }

  @Override
  public Optional<Path> localFile(String path) {
    return delegate.localFile(path);
  }

  @Override
  public String realPath(String path) throws IOException {
    return delegate.realPath(path);
  }

  @Override
  public List<String> realPaths(List<String> paths) throws IOException {
    return delegate.realPaths(paths);
  }

  @Override
  public List<String> realPathsOfListed(List<StoredObject> listed) throws IOException {
    return delegate.realPathsOfListed(listed);
  }

  @Override
  public java.util.Set<String> modifiedSince(List<String> paths, long cutoffMillis)
      throws IOException {
    return delegate.modifiedSince(paths, cutoffMillis);
  }

  @Override
  public int deleteAll(Collection<String> paths) throws IOException {
    return delegate.deleteAll(paths);
  }
}
