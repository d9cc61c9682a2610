package company.data.compactor.delta;

import java.util.Set;

/**
 * What the commits after a version add.
 *
 * @param throughVersion the newest commit read (the version asked after, when there was none)
 * @param paths every data file those commits add, the deletion-vector file of each, and every
 *     change-data file they write, resolved as {@link LogHistory}'s paths are
 */
public record LaterAdds(long throughVersion, Set<String> paths) {

  public LaterAdds {
    paths = Set.copyOf(paths);
  }
}
