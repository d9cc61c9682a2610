package company.data.compactor.model;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The deletion vector of a data file, as its {@code add} or {@code remove} action describes it.
 *
 * @param file absolute, unescaped path of the file holding it (the form storage listings use): for
 *     storage type {@code u} the path the Delta protocol derives from the UUID and optional random
 *     prefix ({@code <root>/<prefix>/deletion_vector_<uuid>.bin}), for {@code p} the logged
 *     absolute path; empty for an inline ({@code i}) vector, which has no file
 * @param cardinality how many rows of the data file it deletes
 * @param descriptor the descriptor exactly as logged, when the reader kept it: what loading the
 *     deleted rows needs, and what a {@code remove} of the file must repeat to name the same
 *     file+vector pair; empty where only the file and cardinality matter (vacuum)
 */
public record DeletionVector(
    Optional<String> file, long cardinality, Optional<Descriptor> descriptor) {

  /**
   * The Delta protocol's "Deletion Vector Descriptor" fields, as logged.
   *
   * @param storageType {@code u} (relative, UUID-named file), {@code p} (absolute path) or {@code
   *     i} (inline)
   * @param pathOrInlineDv the encoded UUID with its optional prefix, the path, or the inline bitmap
   * @param offset where the vector starts in its file; absent for inline vectors
   * @param sizeInBytes the serialised vector's size
   * @param cardinality how many rows it deletes
   */
  public record Descriptor(
      String storageType,
      String pathOrInlineDv,
      OptionalInt offset,
      int sizeInBytes,
      long cardinality) {

    public Descriptor {
      Objects.requireNonNull(storageType, "storageType");
      Objects.requireNonNull(pathOrInlineDv, "pathOrInlineDv");
      Objects.requireNonNull(offset, "offset");
    }
  }

  /** A vector known only by its file and cardinality. */
  public DeletionVector(Optional<String> file, long cardinality) {
    this(file, cardinality, Optional.empty());
  }

  public DeletionVector {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(descriptor, "descriptor");
    if (cardinality < 0) {
      throw new IllegalArgumentException("negative deletion vector cardinality " + cardinality);
    }
  }
}
