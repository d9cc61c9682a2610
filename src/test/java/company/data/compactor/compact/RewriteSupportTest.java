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
}
