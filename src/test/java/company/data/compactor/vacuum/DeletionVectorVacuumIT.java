package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vacuum of a table with deletion vectors and change data, its log written by hand as Spark leaves
 * it (DELETE as remove + add of the same file with a new DV; CDC files per commit). Every object is
 * ten days old; the commits are ten days old up to version 2 and two days old from version 3.
 *
 * <pre>
 * v0 (old)    add a, b, c, d, e (e with an inline DV: no file)
 * v1 (old)    DELETE: remove a + add a with DV1 (u, prefix ab); remove c + add c with DV3 (u); cdc-1
 * v2 (old)    remove c with DV3 (the whole file went): c and DV3 expire; cdc-2
 * v3 (recent) DELETE: remove b + add b with DV2 (u, no prefix); remove d + add d with DV4 (p, inside the root); cdc-3
 * v4 (recent) remove d with DV4: d and DV4 wait out the retention; cdc-4
 * </pre>
 *
 * Live: a, b, e, DV1, DV2 (active), d and DV4 (removed by an unexpired tombstone), cdc-2 (v2 is the
 * table as of the cutoff), cdc-3 and cdc-4 (retained versions). Expired: c, DV3, cdc-1.
 */
class DeletionVectorVacuumIT {

  /**
   * The Delta protocol's own example: prefix {@code ab}, UUID d2c639aa-8816-431a-aaf6-d3fe2512ff61.
   */
  static final String DV1_Z85 = "ab^-aqEH.-t@S}K{vb[*k^";

  static final String DV1_FILE = "ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin";

  /** No prefix: UUID 61d16c75-6994-46b7-a15b-8b538852e50e. */
  static final String DV2_Z85 = "vBn[lx{q8@P<9BNH/isA";

  static final String DV2_FILE = "deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin";

  /** UUID 3f1e2d3c-4b5a-4697-8877-665544332211. */
  static final String DV3_Z85 = "koqysoiK/KH<9Dhl]c20";

  static final String DV3_FILE = "deletion_vector_3f1e2d3c-4b5a-4697-8877-665544332211.bin";
  static final String DV4_FILE = "dvs/deletion_vector_0a1b2c3d-4e5f-4061-9273-849506172839.bin";

  private static final Instant NOW = Instant.now();
  private static final long OLD = NOW.minus(Duration.ofDays(10)).toEpochMilli();
  private static final long RECENT = NOW.minus(Duration.ofDays(2)).toEpochMilli();

  @TempDir Path dir;
  private final LocalStorage storage = new LocalStorage();
  private Path table;
  private TableLocation location;

  @BeforeEach
  void tableWithDeletionVectorsAndChangeData() throws IOException {
    table = Files.createDirectories(dir.resolve("dv"));
    location = TableLocation.parse("dv", dir);
    for (String file :
        List.of(
            "a.parquet",
            "b.parquet",
            "c.parquet",
            "d.parquet",
            "e.parquet",
            DV1_FILE,
            DV2_FILE,
            DV3_FILE,
            DV4_FILE,
            "_change_data/cdc-1.parquet",
            "_change_data/cdc-2.parquet",
            "_change_data/cdc-3.parquet",
            "_change_data/cdc-4.parquet")) {
      Path path = table.resolve(file);
      Files.createDirectories(path.getParent());
      Files.writeString(path, "bytes of " + file);
      Files.setLastModifiedTime(path, FileTime.fromMillis(OLD));
    }
    String schema =
        "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";
    commit(
        0,
        OLD,
        "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],"
            + "\"writerFeatures\":[\"deletionVectors\",\"changeDataFeed\"]}}",
        "{\"metaData\":{\"id\":\"6f0c8c1e-0000-4000-8000-000000000002\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
            + "\"schemaString\":\""
            + schema
            + "\",\"partitionColumns\":[],"
            + "\"configuration\":{\"delta.enableDeletionVectors\":\"true\",\"delta.enableChangeDataFeed\":\"true\"},\"createdTime\":1}}",
        add("a.parquet", null),
        add("b.parquet", null),
        add("c.parquet", null),
        add("d.parquet", null),
        add("e.parquet", dv("i", "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", 1)));
    commit(
        1,
        OLD + 1000,
        remove("a.parquet", null, OLD + 1000),
        add("a.parquet", dv("u", DV1_Z85, 1)),
        remove("c.parquet", null, OLD + 1000),
        add("c.parquet", dv("u", DV3_Z85, 1)),
        cdc("_change_data/cdc-1.parquet"));
    commit(
        2,
        OLD + 2000,
        remove("c.parquet", dv("u", DV3_Z85, 1), OLD + 2000),
        cdc("_change_data/cdc-2.parquet"));
    String dv4 = dv("p", location.uri() + "/" + DV4_FILE, 1);
    commit(
        3,
        RECENT,
        remove("b.parquet", null, RECENT),
        add("b.parquet", dv("u", DV2_Z85, 1)),
        remove("d.parquet", null, RECENT),
        add("d.parquet", dv4),
        cdc("_change_data/cdc-3.parquet"));
    commit(
        4,
        RECENT + 1000,
        remove("d.parquet", dv4, RECENT + 1000),
        cdc("_change_data/cdc-4.parquet"));
  }

  private void commit(long version, long millis, String... actions) throws IOException {
    StringBuilder log =
        new StringBuilder(
            "{\"commitInfo\":{\"timestamp\":" + millis + ",\"operation\":\"WRITE\"}}\n");
    for (String action : actions) {
      log.append(action).append('\n');
    }
    Path file = table.resolve("_delta_log/%020d.json".formatted(version));
    Files.createDirectories(file.getParent());
    Files.writeString(file, log);
    Files.setLastModifiedTime(file, FileTime.fromMillis(millis));
  }

  private static String dv(String storageType, String pathOrInline, long cardinality) {
    String offset = storageType.equals("i") ? "" : "\"offset\":1,";
    return "{\"storageType\":\""
        + storageType
        + "\",\"pathOrInlineDv\":\""
        + pathOrInline
        + "\","
        + offset
        + "\"sizeInBytes\":34,\"cardinality\":"
        + cardinality
        + "}";
  }

  private static String add(String path, String dv) {
    return "{\"add\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":20,\"modificationTime\":"
        + OLD
        + ",\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":3}\""
        + (dv == null ? "" : ",\"deletionVector\":" + dv)
        + "}}";
  }

  private static String remove(String path, String dv, long at) {
    return "{\"remove\":{\"path\":\""
        + path
        + "\",\"deletionTimestamp\":"
        + at
        + ",\"dataChange\":true,"
        + "\"extendedFileMetadata\":true,\"partitionValues\":{},\"size\":20"
        + (dv == null ? "" : ",\"deletionVector\":" + dv)
        + "}}";
  }

  private static String cdc(String path) {
    return "{\"cdc\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":20,\"dataChange\":false}}";
  }

  private VacuumResult vacuum(VacuumMode mode, boolean dryRun) {
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    return new VacuumExecutor(
            storage,
            new KernelLogReader(storage),
            new KernelRewriteCommitter(storage, clock),
            new VacuumPlanner(clock))
        .vacuum(tables.loadLatest(location), mode, 168, dryRun);
  }

  private List<String> remainingFiles() throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> table.relativize(p).toString())
          .filter(p -> !p.startsWith("_delta_log"))
          .sorted()
          .toList();
    }
  }

  private List<String> candidates(VacuumResult result) {
    return result.plan().candidates().stream()
        .map(c -> c.path().substring(location.uri().length() + 1))
        .sorted()
        .toList();
  }

  @Test
  void full_keepsEveryFileARetainedVersionReads_deletionVectorsAndChangeDataIncluded()
      throws IOException {
    VacuumResult result = vacuum(VacuumMode.FULL, false);

    assertThat(candidates(result))
        .containsExactly("_change_data/cdc-1.parquet", "c.parquet", DV3_FILE);
    assertThat(remainingFiles())
        .containsExactly(
            "_change_data/cdc-2.parquet",
            "_change_data/cdc-3.parquet",
            "_change_data/cdc-4.parquet",
            "a.parquet",
            DV1_FILE,
            "b.parquet",
            "d.parquet",
            DV2_FILE,
            DV4_FILE,
            "e.parquet");
    assertThat(result.deletedFiles()).isEqualTo(3);
  }

  @Test
  void lite_deletesADeletionVectorFileWithTheTombstonesThatReferenceIt_andNothingLive()
      throws IOException {
    VacuumResult result = vacuum(VacuumMode.LITE, false);

    assertThat(candidates(result))
        .containsExactly("_change_data/cdc-1.parquet", "c.parquet", DV3_FILE);
    assertThat(result.plan().candidates())
        .allSatisfy(c -> assertThat(c.reason()).isEqualTo("expired_tombstone"));
    assertThat(remainingFiles())
        .contains(DV1_FILE, DV2_FILE, DV4_FILE, "d.parquet", "_change_data/cdc-2.parquet")
        .doesNotContain(DV3_FILE, "c.parquet");
  }
}
