package company.data.compactor.delta.kernel;

import company.data.compactor.error.Errors;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.model.TableLocation;
import io.delta.kernel.data.Row;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.deletionvectors.Base85Codec;
import io.delta.kernel.internal.fs.Path;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * Deletion vector descriptors of {@code add} and {@code remove} actions, read into {@link
 * DeletionVector}: the file each one lives in, per the Delta protocol's "Deletion Vector
 * Descriptor". Storage type {@code u}: {@code pathOrInlineDv} is an optional random prefix followed
 * by the 20-character Z85 encoding of a UUID (decoded by kernel's {@code Base85Codec}), the file
 * {@code <table root>/<prefix>/deletion_vector_<uuid>.bin}; {@code p}: an absolute URI; {@code i}:
 * inline, no file. Paths come out absolute, unescaped and normalised, the form storage listings
 * use. A descriptor that cannot be read is an error, never "no file": vacuum must not guess.
 */
final class KernelDeletionVectors {

  private KernelDeletionVectors() {}

  /**
   * The deletion vector a descriptor row describes (kernel's {@code deletionVector} struct: {@code
   * storageType}, {@code pathOrInlineDv}, {@code cardinality}, ...).
   *
   * @param owner the data file it belongs to, for the error message
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when it is malformed
   */
  static DeletionVector of(TableLocation location, Row descriptor, String owner) {
    int type = descriptor.getSchema().indexOf("storageType");
    int path = descriptor.getSchema().indexOf("pathOrInlineDv");
    int cardinality = descriptor.getSchema().indexOf("cardinality");
    if (type < 0
        || path < 0
        || cardinality < 0
        || descriptor.isNullAt(type)
        || descriptor.isNullAt(path)
        || descriptor.isNullAt(cardinality)) {
      throw malformed(location, owner, "storageType, pathOrInlineDv and cardinality are required");
    }
    int offset = descriptor.getSchema().indexOf("offset");
    int size = descriptor.getSchema().indexOf("sizeInBytes");
    DeletionVector vector =
        of(
            location,
            descriptor.getString(type),
            descriptor.getString(path),
            descriptor.getLong(cardinality),
            owner);
    if (size < 0 || descriptor.isNullAt(size)) {
      throw malformed(location, owner, "sizeInBytes is required");
    }
    return new DeletionVector(
        vector.file(),
        vector.cardinality(),
        Optional.of(
            new DeletionVector.Descriptor(
                descriptor.getString(type),
                descriptor.getString(path),
                offset < 0 || descriptor.isNullAt(offset)
                    ? OptionalInt.empty()
                    : OptionalInt.of(descriptor.getInt(offset)),
                descriptor.getInt(size),
                descriptor.getLong(cardinality))));
  }

  /**
   * Kernel's descriptor of a logged vector, for loading it and for naming it in a {@code remove}.
   *
   * @throws IllegalArgumentException when the vector was read without its descriptor
   */
  static DeletionVectorDescriptor descriptor(DeletionVector vector, String owner) {
    DeletionVector.Descriptor d =
        vector
            .descriptor()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "the deletion vector of " + owner + " was read without its descriptor"));
    return new DeletionVectorDescriptor(
        d.storageType(),
        d.pathOrInlineDv(),
        d.offset().isPresent() ? Optional.of(d.offset().getAsInt()) : Optional.empty(),
        d.sizeInBytes(),
        d.cardinality());
  }

  /**
   * The deletion vector of the given descriptor fields.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when they are
   *     malformed
   */
  static DeletionVector of(
      TableLocation location,
      String storageType,
      String pathOrInlineDv,
      long cardinality,
      String owner) {
    if (cardinality < 0) {
      throw malformed(location, owner, "negative cardinality " + cardinality);
    }
    return new DeletionVector(file(location, storageType, pathOrInlineDv, owner), cardinality);
  }

  private static Optional<String> file(
      TableLocation location, String storageType, String pathOrInlineDv, String owner) {
    switch (storageType) {
      case "i":
        return Optional.empty();
      case "u":
        {
          int split = pathOrInlineDv.length() - Base85Codec.ENCODED_UUID_LENGTH;
          if (split < 0) {
            throw malformed(
                location, owner, "'" + pathOrInlineDv + "' is shorter than a Z85-encoded UUID");
          }
          UUID uuid;
          try {
            uuid = Base85Codec.decodeUUID(pathOrInlineDv.substring(split));
          } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw malformed(
                location, owner, "'" + pathOrInlineDv + "' does not end in a Z85-encoded UUID");
          }
          String prefix = pathOrInlineDv.substring(0, split);
          Path directory =
              prefix.isEmpty() ? new Path(location.uri()) : new Path(location.uri(), prefix);
          return Optional.of(
              TableLocation.canonicalPath(
                  new Path(directory, "deletion_vector_" + uuid + ".bin").toString()));
        }
      case "p":
        {
          try {
            URI uri = new URI(pathOrInlineDv);
            if (!uri.isAbsolute()) {
              throw malformed(location, owner, "path '" + pathOrInlineDv + "' is not absolute");
            }
            return Optional.of(TableLocation.canonicalPath(new Path(uri.normalize()).toString()));
          } catch (URISyntaxException e) {
            throw malformed(location, owner, "path '" + pathOrInlineDv + "' is not a URI");
          }
        }
      default:
        throw malformed(location, owner, "unknown storage type '" + storageType + "'");
    }
  }

  private static RuntimeException malformed(TableLocation location, String owner, String why) {
    return Errors.operationFailed(
        "reading the deletion vector descriptor of " + owner + " in " + location,
        new IllegalArgumentException(why));
  }
}
