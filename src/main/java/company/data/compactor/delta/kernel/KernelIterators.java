package company.data.compactor.delta.kernel;

import io.delta.kernel.utils.CloseableIterator;
import java.util.Iterator;
import java.util.List;

/** Kernel's closeable iterator over an in-memory list. */
final class KernelIterators {

  private KernelIterators() {}

  static <T> CloseableIterator<T> of(List<T> items) {
    Iterator<T> it = items.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public T next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }
}
