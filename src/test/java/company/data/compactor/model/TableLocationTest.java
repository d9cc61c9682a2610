package company.data.compactor.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TableLocationTest {

  private static final Path WORK = Path.of("/work/dir");

  @Test
  void parse_resolvesRelativePathsAgainstTheWorkDir() {
    assertThat(TableLocation.parse("demo_delta_table", WORK).uri())
        .isEqualTo("file:/work/dir/demo_delta_table");
    assertThat(TableLocation.parse("../t/", WORK).uri()).isEqualTo("file:/work/t");
  }

  @Test
  void parse_acceptsAbsolutePathsAndFileUris() {
    assertThat(TableLocation.parse("/data/t", WORK).uri()).isEqualTo("file:/data/t");
    assertThat(TableLocation.parse("file:/data/t", WORK).uri()).isEqualTo("file:/data/t");
    assertThat(TableLocation.parse("file:///data/t", WORK).uri()).isEqualTo("file:/data/t");
    assertThat(TableLocation.parse("file:///data/t", WORK).localPath()).isEqualTo(Path.of("/data/t"));
  }

  @Test
  void parse_normalisesS3Uris() {
    TableLocation location = TableLocation.parse("s3://bucket/tables/events/", WORK);
    assertThat(location.uri()).isEqualTo("s3://bucket/tables/events");
    assertThat(location.scheme()).isEqualTo(TableLocation.Scheme.S3);
    assertThat(TableLocation.parse("s3a://bucket/t", WORK).uri()).isEqualTo("s3://bucket/t");
  }

  @Test
  void parse_refusesOtherSchemesAndBlankValues() {
    assertThatThrownBy(() -> TableLocation.parse("gs://b/t", WORK))
        .hasMessageContaining("unsupported scheme");
    assertThatThrownBy(() -> TableLocation.parse(" ", WORK)).hasMessage("must not be blank");
    assertThatThrownBy(() -> TableLocation.parse("s3://", WORK)).hasMessageContaining("bucket");
  }
}
