package company.data.compactor.testing;

import company.data.compactor.storage.Scratch;
import java.nio.file.Path;

/**
 * A separate process holding one scratch directory the way a live run does, for tests of what
 * another process's sweep may touch: {@code java -cp <test classpath>
 * company.data.compactor.testing.ScratchHolder <scratch-root>} prints the directory and waits until
 * it is killed.
 */
public final class ScratchHolder {

  private ScratchHolder() {}

  public static void main(String[] args) throws InterruptedException {
    Scratch scratch = Scratch.create(Path.of(args[0]));
    System.out.println(scratch.dir());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
