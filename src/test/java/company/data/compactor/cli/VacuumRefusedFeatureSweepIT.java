package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.model.TableLocation;
import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.CliRunner.Result;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vacuum refused for a table feature it does not handle leaves the table as it was, our own stale
 * temporary object in it included (it used to be swept before the refusal).
 */
class VacuumRefusedFeatureSweepIT {

  @TempDir Path work;

  @Test
  void vacuum_refusedForAnUnsupportedFeature_keepsOurStaleTemporaryObject() throws Exception {
    TableLocation location = TableLocation.parse("mapped", work);
    TypedTables typed = new TypedTables();
    typed.create(
        location,
        new StructType().add("id", LongType.LONG).add("p", StringType.STRING),
        "p",
        Map.of("delta.enableTypeWidening", "true"));
    typed.append(location, "p", "a", "SELECT range AS id FROM range(3)", "f1");
    Path leftover =
        location
            .localPath()
            .resolve(".compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet");
    Files.writeString(leftover, "12345");
    Files.setLastModifiedTime(leftover, FileTime.from(Instant.now().minus(Duration.ofHours(169))));

    Result vacuum =
        CliRunner.run(
            Map.of(),
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "mapped",
            "--vacuum-dry-run",
            "false");

    assertThat(vacuum.code()).isEqualTo(1);
    assertThat(vacuum.err())
        .contains("that vacuum does not handle yet")
        .contains("nothing was written or deleted");
    assertThat(leftover).as("refused table: nothing deleted").exists();
  }
}
