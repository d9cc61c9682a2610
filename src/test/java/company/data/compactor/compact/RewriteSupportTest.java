package company.data.compactor.compact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class RewriteSupportTest {

  @Test
  void unsupported_namesFeaturesOutsideTheAllowList_sorted() {
    assertThat(
            RewriteSupport.unsupported(
                Set.of(
                    "appendOnly",
                    "invariants",
                    "columnMapping",
                    "typeWidening",
                    "someFutureFeature")))
        .containsExactly("someFutureFeature", "typeWidening");
    assertThat(
            RewriteSupport.unsupported(
                Set.of(
                    "appendOnly",
                    "invariants",
                    "timestampNtz",
                    "deletionVectors",
                    "columnMapping")))
        .isEmpty();
  }

  @Test
  void unsupported_alsoNamesSupportedFeaturesTheWriterCannotCommitToWhileInUse() {
    Set<String> features =
        Set.of("appendOnly", "checkConstraints", "generatedColumns", "invariants");

    assertThat(RewriteSupport.unsupported(features, Set.of("checkConstraints", "invariants")))
        .containsExactly("checkConstraints", "invariants");
    assertThat(RewriteSupport.unsupported(features, Set.of())).isEmpty();
    assertThat(RewriteSupport.unsupported(features, Set.of("identityColumns")))
        .as("only features the table lists")
        .isEmpty();
  }

  @Test
  void inUse_saysWhatMakesAFeatureUnwritable() {
    assertThat(RewriteSupport.inUse("checkConstraints")).isEqualTo("a CHECK constraint is defined");
    assertThat(RewriteSupport.inUse("identityColumns")).isEqualTo("a column is an identity column");
  }
}
