package company.data.compactor.sweep;

import java.nio.file.Path;
import java.time.Instant;

/**
 * A directory found under the scratch root, as listed.
 *
 * @param path the directory
 * @param modifiedAt its last modification time
 */
public record ScratchDirectory(Path path, Instant modifiedAt) {

  /** The directory's own name. */
  public String name() {
    return path.getFileName().toString();
  }
}
