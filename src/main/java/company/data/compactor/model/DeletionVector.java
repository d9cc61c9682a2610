package company.data.compactor.model;

import java.util.Objects;
import java.util.Optional;

/**
 * The deletion vector of a data file, as its {@code add} or {@code remove} action describes it.
 *
 * @param file absolute, unescaped path of the file holding it (the form storage listings use): for
 *     storage type {@code u} the path the Delta protocol derives from the UUID and optional random
 *     prefix ({@code <root>/<prefix>/deletion_vector_<uuid>.bin}), for {@code p} the logged
 *     absolute path; empty for an inline ({@code i}) vector, which has no file
 * @param cardinality how many rows of the data file it deletes
 */
public record DeletionVector(Optional<String> file, long cardinality) {

  public DeletionVector {
    Objects.requireNonNull(file, "file");
    if (cardinality < 0) {
      throw new IllegalArgumentException("negative deletion vector cardinality " + cardinality);
    }
  }
}
