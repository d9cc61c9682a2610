package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.ForwardingStorage;
import company.data.compactor.testing.LocalCompactions;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publish that fails after the file became visible (the upload's response lost), on the second
 * output of a partition: nothing is committed and no file the run published stays in the table.
 */
class PublishFailureIT {

  @TempDir Path dir;

  @Test
  void aPublishFailingAfterWriting_leavesNoOutputInTheTable_andCommitsNothing() throws Exception {
    LocalStorage local = new LocalStorage();
    AtomicInteger publishes = new AtomicInteger();
    ForwardingStorage storage =
        new ForwardingStorage(local) {
          @Override
          public void publishFile(Path file, String path) throws IOException {
            local.publishFile(file, path);
            if (publishes.incrementAndGet() == 2) {
              throw new IOException("injected: response lost after the write");
            }
          }
        };
    TableLocation location = TableLocation.parse("t", dir);
    TypedTables typed = new TypedTables();
    typed.create(
        location,
        new StructType()
            .add("d", DoubleType.DOUBLE)
            .add("i", IntegerType.INTEGER)
            .add("p", StringType.STRING),
        "p");
    for (int a = 0; a < 12; a++) {
      typed.append(
          location,
          "p",
          "a",
          "SELECT random() AS d, CAST(r AS INTEGER) AS i FROM range("
              + (a * 4000)
              + ", "
              + (a * 4000 + 4000)
              + ") t(r)",
          "in-" + a);
    }
    List<Path> before = parquetFiles();
    KernelDeltaTables tables = new KernelDeltaTables(local);
    TableSnapshot snapshot = tables.loadLatest(location);
    CompactionOptions options = LocalCompactions.binPack(1 << 30, 2, 96 << 10);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> LocalCompactions.execute(storage, dir.resolve("scratch"), snapshot, options))
        .hasMessageContaining("injected");

    assertThat(publishes.get()).as("publishes attempted").isGreaterThanOrEqualTo(2);
    assertThat(tables.loadLatest(location).version()).isEqualTo(snapshot.version());
    assertThat(parquetFiles()).containsExactlyInAnyOrderElementsOf(before);
  }

  private List<Path> parquetFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> !p.toString().contains("_delta_log"))
          .toList();
    }
  }
}
