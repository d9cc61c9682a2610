package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.error.CompactorException;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.model.TableLocation;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.deletionvectors.Base85Codec;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Where a deletion vector's file lives, per the Delta protocol's "Deletion Vector Descriptor". */
class KernelDeletionVectorsTest {

  private static final TableLocation ROOT = new TableLocation("file:/t");

  private static DeletionVector dv(String type, String pathOrInline) {
    return KernelDeletionVectors.of(ROOT, type, pathOrInline, 6, "a.parquet");
  }

  @Test
  void relative_derivesThePathFromTheUuidAndPrefix_asTheProtocolsExamples() {
    assertThat(dv("u", "ab^-aqEH.-t@S}K{vb[*k^"))
        .isEqualTo(
            new DeletionVector(
                Optional.of("file:/t/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin"),
                6));
    assertThat(dv("u", "vBn[lx{q8@P<9BNH/isA").file())
        .hasValue("file:/t/deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin");
    assertThat(
            KernelDeletionVectors.of(
                    new TableLocation("s3://bucket/my table"),
                    "u",
                    "ab^-aqEH.-t@S}K{vb[*k^",
                    1,
                    "x")
                .file())
        .hasValue(
            "s3://bucket/my table/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
  }

  @Test
  void relative_agreesWithKernelsOwnDescriptor_overRandomUuidsAndPrefixes() {
    Random random = new Random(15);
    for (int i = 0; i < 200; i++) {
      String prefix = random.nextInt(3) == 0 ? "" : Integer.toString(random.nextInt(1 << 20), 36);
      String encoded =
          prefix + Base85Codec.encodeUUID(new UUID(random.nextLong(), random.nextLong()));
      String kernels =
          new DeletionVectorDescriptor("u", encoded, Optional.of(1), 10, 1)
              .getAbsolutePath(ROOT.uri());
      assertThat(dv("u", encoded).file()).as(encoded).hasValue(kernels);
    }
  }

  @Test
  void absolute_isTheLoggedUri_unescapedAndNormalised_andInlineHasNoFile() {
    assertThat(dv("p", "file:/t/a%20b/dv.bin").file()).hasValue("file:/t/a b/dv.bin");
    assertThat(dv("p", "file:/t/x/../dv.bin").file()).hasValue("file:/t/dv.bin");
    assertThat(dv("p", "s3://elsewhere/dv.bin").file()).hasValue("s3://elsewhere/dv.bin");
    assertThat(dv("p", "s3a://bkt/t/dv.bin").file())
        .as("the listing's spelling")
        .hasValue("s3://bkt/t/dv.bin");
    assertThat(dv("p", "S3://bkt/t/dv.bin").file()).hasValue("s3://bkt/t/dv.bin");
    assertThat(dv("p", "FILE:/t/dv.bin").file()).hasValue("file:/t/dv.bin");
    assertThat(dv("i", "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L"))
        .isEqualTo(new DeletionVector(Optional.empty(), 6));
  }

  @Test
  void aMalformedDescriptor_isAnError_neverNoFile() {
    assertThatThrownBy(() -> dv("u", "short"))
        .isInstanceOf(CompactorException.class)
        .hasMessage(
            "Failed while reading the deletion vector descriptor of a.parquet in file:/t: IllegalArgumentException:"
                + " 'short' is shorter than a Z85-encoded UUID");
    assertThatThrownBy(() -> dv("p", "relative/dv.bin"))
        .isInstanceOf(CompactorException.class)
        .hasMessageEndingWith("path 'relative/dv.bin' is not absolute");
    assertThatThrownBy(() -> dv("x", "whatever"))
        .isInstanceOf(CompactorException.class)
        .hasMessageEndingWith("unknown storage type 'x'");
    assertThatThrownBy(() -> KernelDeletionVectors.of(ROOT, "i", "abc", -1, "a.parquet"))
        .isInstanceOf(CompactorException.class)
        .hasMessageEndingWith("negative cardinality -1");
  }
}
