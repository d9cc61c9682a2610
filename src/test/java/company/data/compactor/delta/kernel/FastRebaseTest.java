package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FastRebaseTest {

  private static final TableLocation TABLE = new TableLocation("s3://bkt/tables/t");
  private static final DataFile INPUT =
      new DataFile(
          "s3://bkt/tables/t/day=2026-10-17 a/part-1.parquet",
          "day=2026-10-17%20a/part-1.parquet",
          100,
          new PartitionValues(Map.of("day", "2026-10-17 a")),
          OptionalLong.of(5),
          0,
          false);
  private static final FastRebase JUDGE = FastRebase.forInputs(TABLE, List.of(INPUT));

  private static boolean harmless(String... lines) {
    return JUDGE.cannotConflict((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static final String COMMIT_INFO =
      "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\"}}";
  private static final String APPEND =
      "{\"add\":{\"path\":\"day=2026-10-17%20a/part-9.parquet\",\"size\":5,\"dataChange\":true}}";

  @Test
  void anAppend_cannotConflict() {
    assertThat(harmless(COMMIT_INFO, APPEND, "{\"txn\":{\"appId\":\"x\",\"version\":3}}")).isTrue();
  }

  @Test
  void aRemoveOfAnotherFile_cannotConflict() {
    assertThat(harmless(COMMIT_INFO, "{\"remove\":{\"path\":\"day=x/other.parquet\"}}")).isTrue();
  }

  @Test
  void aRemoveOfAnInput_mayConflict_howeverItsPathIsSpelled() {
    assertThat(
            harmless(COMMIT_INFO, "{\"remove\":{\"path\":\"day=2026-10-17%20a/part-1.parquet\"}}"))
        .isFalse();
    assertThat(
            harmless(
                "{\"remove\":{\"path\":\"s3://bkt/tables/t/day=2026-10-17%20a/part-1.parquet\"}}"))
        .isFalse();
    assertThat(harmless("{\"remove\":{\"path\":\"./day=2026-10-17%20a/part-1.parquet\"}}"))
        .isFalse();
  }

  @Test
  void aRemoveWithoutAReadablePath_mayConflict() {
    assertThat(harmless("{\"remove\":{\"size\":3}}")).isFalse();
    assertThat(harmless("{\"remove\":{\"path\":\"day=a b/%zz.parquet\"}}")).isFalse();
  }

  @Test
  void tableChangesAndUnknownActions_goToKernel() {
    assertThat(harmless(COMMIT_INFO, "{\"metaData\":{\"id\":\"x\"}}")).isFalse();
    assertThat(harmless("{\"protocol\":{\"minReaderVersion\":3}}")).isFalse();
    assertThat(harmless("{\"domainMetadata\":{\"domain\":\"delta.clustering\"}}")).isFalse();
    assertThat(harmless("{\"somethingNew\":{}}")).isFalse();
    assertThat(harmless("{\"add\":{},\"remove\":{}}")).isFalse();
    assertThat(harmless("not json")).isFalse();
    assertThat(harmless("[1,2]")).isFalse();
  }
}
