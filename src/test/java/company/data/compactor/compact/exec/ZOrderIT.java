package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.cli.Main;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.model.Column;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Z-order clustering of a real table through the command line: 24 small files, each holding rows of
 * all 40 customers, clustered into several files so a point lookup on the Z-order column reads at
 * most half the files it read before; every row kept; a second run does nothing.
 */
class ZOrderIT {

  private static final String PREFIX =
      "customer-account-number-with-a-long-shared-prefix-".repeat(3);
  private static final int FILES = 24;
  private static final int ROWS_PER_FILE = 20_000;
  private static final int CUSTOMERS = 40;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DATA_COLUMNS =
      List.of("event_id", "customer_id", "account", "amount");

  @TempDir Path work;
  private final LocalStorage storage = new LocalStorage();

  private TableLocation table() {
    return TableLocation.parse("events", work);
  }

  private void seed(TableLocation table, String date, int files, long seed) {
    KernelTableWriter writer = new KernelTableWriter(storage);
    if (!java.nio.file.Files.exists(table.localPath().resolve("_delta_log"))) {
      writer.create(
          table,
          new TableSchema(
              List.of(
                  new Column("event_id", "string", true),
                  new Column("customer_id", "long", true),
                  new Column("account", "string", true),
                  new Column("amount", "double", true),
                  new Column("event_date", "string", true)),
              List.of("event_date")),
          Map.of());
    }
    Random random = new Random(seed);
    PartitionValues partition =
        PartitionValues.of(List.of("event_date"), Map.of("event_date", date));
    for (int f = 0; f < files; f++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int r = 0; r < ROWS_PER_FILE; r++) {
        long customer = 1 + random.nextInt(CUSTOMERS);
        String account = PREFIX + String.format("%04d", random.nextInt(CUSTOMERS));
        rows.add(
            java.util.Arrays.asList(
                date + "-" + f + "-" + r,
                customer,
                account,
                random.nextInt(100_000) / 100.0,
                date));
      }
      writer.append(table, partition, rows);
    }
  }

  private record Result(int code, JsonNode report, String err) {}

  private Result run(String... args) throws Exception {
    return runWith(Map.of(), args);
  }

  private Result runWith(Map<String, String> environment, String... args) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> all =
        new ArrayList<>(
            List.of(
                "run",
                "--work-dir",
                work.toString(),
                "--demo-mode",
                "false",
                "--table-uri",
                "events",
                "--small-file-threshold-mb",
                "64",
                "--json"));
    all.addAll(List.of(args));
    int code =
        Main.execute(
            all.toArray(String[]::new),
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            environment);
    return new Result(code, code == 0 ? JSON.readTree(out.toString()) : null, err.toString());
  }

  /**
   * Files of {@code partition} whose min/max of {@code column} could hold {@code value}, read from
   * the log's stats.
   */
  private static long filesTouched(
      TableSnapshot snapshot, String partition, String column, JsonNode value) {
    return snapshot.activeFiles().stream()
        .filter(f -> f.partition().label().equals(partition))
        .filter(f -> couldHold(f, column, value))
        .count();
  }

  private static boolean couldHold(DataFile file, String column, JsonNode value) {
    try {
      JsonNode stats = JSON.readTree(file.statsJson());
      JsonNode min = stats.path("minValues").get(column);
      JsonNode max = stats.path("maxValues").get(column);
      if (value.isNumber()) {
        return min.asLong() <= value.asLong() && value.asLong() <= max.asLong();
      }
      return min.asText().compareTo(value.asText()) <= 0
          && value.asText().compareTo(max.asText()) <= 0;
    } catch (Exception e) {
      throw new AssertionError("stats of " + file.path(), e);
    }
  }

  private static long bound(DataFile file, String which) {
    try {
      return JSON.readTree(file.statsJson()).path(which).get("customer_id").asLong();
    } catch (Exception e) {
      throw new AssertionError("stats of " + file.path(), e);
    }
  }

  private static double averageTouched(
      TableSnapshot snapshot, String partition, String column, List<JsonNode> values) {
    return values.stream()
        .mapToLong(v -> filesTouched(snapshot, partition, column, v))
        .average()
        .orElseThrow();
  }

  /** Every customer id the seeded rows hold, as point-lookup values. */
  private static List<JsonNode> customerIds() {
    List<JsonNode> customers = new ArrayList<>();
    for (int c = 1; c <= CUSTOMERS; c++) {
      customers.add(JSON.getNodeFactory().numberNode((long) c));
    }
    return customers;
  }

  @Test
  void zOrderByCustomer_halvesTheFilesAPointLookupReads_keepsEveryRow_andASecondRunDoesNothing()
      throws Exception {
    TableLocation table = table();
    seed(table, "2026-11-01", FILES, 7);
    TableSnapshot before = new KernelDeltaTables(storage).loadLatest(table);
    String checksumBefore = DuckDb.checksum(before.activeFiles(), DATA_COLUMNS);
    List<JsonNode> customers = customerIds();
    double touchedBefore =
        averageTouched(before, "event_date=2026-11-01", "customer_id", customers);

    Result first = run("--z-order-columns", "customer_id", "--target-file-size-mb", "0.5");

    assertThat(first.code()).as(first.err()).isZero();
    TableSnapshot after = new KernelDeltaTables(storage).loadLatest(table);
    assertThat(first.report().get("compacted").asBoolean()).isTrue();
    assertThat(first.report().get("files_before").asInt()).isEqualTo(FILES);
    assertThat(after.activeFiles()).hasSizeGreaterThanOrEqualTo(4);
    assertThat(after.activeFiles())
        .allSatisfy(f -> assertThat(f.zOrderedBy()).containsExactly("customer_id"));
    // Near the target: the rows are cut into equal slices from a measured bytes per row, as many as
    // keep each at the target, so every file is between half the target and the target (a quarter
    // over allowed for the estimate), none a short remainder.
    long target = 512 * 1024;
    List<Long> sizes = after.activeFiles().stream().map(DataFile::sizeBytes).sorted().toList();
    assertThat(sizes)
        .as("output sizes, target %d", target)
        .allSatisfy(
            size ->
                assertThat(size)
                    .isLessThanOrEqualTo(target * 5 / 4)
                    .isGreaterThanOrEqualTo(target / 2));
    // Inside each file the row groups follow the order too, so a reader prunes row groups as well.
    for (DataFile file : after.activeFiles()) {
      List<long[]> groups = DuckDb.rowGroupRanges(file, "customer_id");
      assertThat(groups).as("row groups of %s", file.path()).hasSizeGreaterThan(1);
      for (int g = 1; g < groups.size(); g++) {
        assertThat(groups.get(g)[0])
            .as("row group %d of %s starts at or after the previous one's end", g, file.path())
            .isGreaterThanOrEqualTo(groups.get(g - 1)[1]);
      }
    }
    // Files are consecutive slices of the order: sorted by their minimum, each starts at or after
    // the previous one's maximum (a parallel writer that lets row groups spill into the next file
    // breaks this, and with it the skipping).
    List<long[]> ranges =
        after.activeFiles().stream()
            .map(f -> new long[] {bound(f, "minValues"), bound(f, "maxValues")})
            .sorted(
                java.util.Comparator.comparingLong((long[] r) -> r[0]).thenComparingLong(r -> r[1]))
            .toList();
    for (int i = 1; i < ranges.size(); i++) {
      assertThat(ranges.get(i)[0])
          .as("file %d of %d starts at or after the previous file's end", i, ranges.size())
          .isGreaterThanOrEqualTo(ranges.get(i - 1)[1]);
    }
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS)).isEqualTo(checksumBefore);
    assertThat(checksumBefore).startsWith((FILES * ROWS_PER_FILE) + ":");
    double touchedAfter = averageTouched(after, "event_date=2026-11-01", "customer_id", customers);
    assertThat(touchedBefore).isEqualTo(FILES);
    assertThat(touchedAfter)
        .as("files a point lookup reads, of %d", after.activeFiles().size())
        .isLessThanOrEqualTo(touchedBefore / 2)
        .isLessThanOrEqualTo(after.activeFiles().size() / 2.0);

    JsonNode skipping = first.report().get("zorder_skipping");
    assertThat(skipping.get("columns").get(0).asText()).isEqualTo("customer_id");
    assertThat(skipping.get("file_fraction_before").asDouble()).isEqualTo(1.0);
    assertThat(skipping.get("file_fraction_after").asDouble()).isLessThanOrEqualTo(0.5);
    JsonNode commit =
        JSON.readTree(
            java.nio.file.Files.readAllLines(
                    table
                        .localPath()
                        .resolve("_delta_log")
                        .resolve(
                            String.format(
                                "%020d.json", first.report().get("version_after").asLong())))
                .get(0));
    assertThat(commit.at("/commitInfo/operationParameters/zOrderBy").asText())
        .isEqualTo("[\"customer_id\"]");

    Result second = run("--z-order-columns", "customer_id", "--target-file-size-mb", "0.5");

    assertThat(second.code()).as(second.err()).isZero();
    assertThat(second.report().get("compacted").asBoolean()).isFalse();
    assertThat(second.report().get("table_version").asLong())
        .isEqualTo(first.report().get("version_after").asLong());
    assertThat(
            second
                .report()
                .get("compaction_plan")
                .get("partitions")
                .get(0)
                .get("decision")
                .asText())
        .isEqualTo("already_clustered");
    assertThat(second.report().get("steps").toString())
        .contains("already Z-ordered by customer_id and has no new files");
  }

  @Test
  void aSortLargerThanDuckDbsMemoryLimit_spillsToScratch_andKeepsEveryRow() throws Exception {
    TableLocation table = table();
    seed(table, "2026-11-05", FILES, 19);
    TableSnapshot before = new KernelDeltaTables(storage).loadLatest(table);
    String checksumBefore = DuckDb.checksum(before.activeFiles(), DATA_COLUMNS);
    // 480,000 rows of about 190 bytes (the account strings are 154 characters): some 90 MB to sort
    // by two columns' interleaved key, under a 64 MB limit on one thread (DuckDB allocates in 16 MB
    // blocks; at 32 MB it cannot run at all).
    Result result =
        runWith(
            Map.of("COMPACTOR_DUCKDB_MEMORY_LIMIT", "64MB", "COMPACTOR_DUCKDB_THREADS", "1"),
            "--z-order-columns",
            "customer_id,account",
            "--target-file-size-mb",
            "0.5");

    assertThat(result.code()).as(result.err()).isZero();
    TableSnapshot after = new KernelDeltaTables(storage).loadLatest(table);
    assertThat(result.report().get("compacted").asBoolean()).isTrue();
    assertThat(after.activeFiles())
        .hasSizeGreaterThanOrEqualTo(4)
        .allSatisfy(f -> assertThat(f.zOrderedBy()).containsExactly("customer_id", "account"));
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(checksumBefore)
        .startsWith((FILES * ROWS_PER_FILE) + ":");
    // Two columns of 40 values each over a handful of files: each is clustered only in part, but a
    // lookup on either skips files it had to read before.
    List<JsonNode> customers = customerIds();
    assertThat(averageTouched(before, "event_date=2026-11-05", "customer_id", customers))
        .isEqualTo(FILES);
    assertThat(averageTouched(after, "event_date=2026-11-05", "customer_id", customers))
        .isLessThanOrEqualTo(after.activeFiles().size() * 0.8);
    // Delta truncates string statistics to 32 characters, so the accounts' clustering shows in the
    // data: how many files hold each account.
    assertThat(DuckDb.averageFilesPerValue(before.activeFiles(), "account")).isEqualTo(FILES);
    assertThat(DuckDb.averageFilesPerValue(after.activeFiles(), "account"))
        .isLessThanOrEqualTo(after.activeFiles().size() * 0.8);
  }

  @Test
  void aNewFile_inAClusteredPartition_makesTheNextRunClusterItAgain() throws Exception {
    TableLocation table = table();
    seed(table, "2026-11-02", 6, 11);
    assertThat(run("--z-order-columns", "customer_id", "--target-file-size-mb", "0.5").code())
        .isZero();
    seed(table, "2026-11-02", 1, 12);

    Result again = run("--z-order-columns", "customer_id", "--target-file-size-mb", "0.5");

    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.report().get("compacted").asBoolean()).isTrue();
    assertThat(new KernelDeltaTables(storage).loadLatest(table).activeFiles())
        .allSatisfy(f -> assertThat(f.zOrderedBy()).containsExactly("customer_id"));
  }

  @Test
  void longStringsSharingAPrefix_clusterToo() throws Exception {
    TableLocation table = table();
    seed(table, "2026-11-03", FILES, 13);
    TableSnapshot before = new KernelDeltaTables(storage).loadLatest(table);
    List<JsonNode> accounts = new ArrayList<>();
    for (int c = 0; c < CUSTOMERS; c++) {
      accounts.add(JSON.getNodeFactory().textNode(PREFIX + String.format("%04d", c)));
    }

    Result result = run("--z-order-columns", "account", "--target-file-size-mb", "0.5");

    assertThat(result.code()).as(result.err()).isZero();
    TableSnapshot after = new KernelDeltaTables(storage).loadLatest(table);
    assertThat(PREFIX.length()).isGreaterThan(100);
    assertThat(after.activeFiles()).hasSizeGreaterThanOrEqualTo(4);
    assertThat(averageTouched(after, "event_date=2026-11-03", "account", accounts))
        .isLessThanOrEqualTo(
            averageTouched(before, "event_date=2026-11-03", "account", accounts) / 2);
    // Delta truncates string statistics to 32 characters, all of them the shared prefix here, so
    // the
    // statistics cannot tell these files apart; the clustering shows in the data: each account's
    // rows
    // sit in at most two of the files (one, or one boundary shared with a neighbour).
    assertThat(DuckDb.averageFilesPerValue(before.activeFiles(), "account")).isEqualTo(FILES);
    assertThat(DuckDb.averageFilesPerValue(after.activeFiles(), "account"))
        .isLessThanOrEqualTo(2.0);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(DuckDb.checksum(before.activeFiles(), DATA_COLUMNS));
  }

  @Test
  void zOrderColumns_thatCannotCluster_areRefusedBeforeAnyWork_namingColumnAndReason()
      throws Exception {
    TableLocation table = table();
    seed(table, "2026-11-04", 2, 17);
    StringWriter tooMany = new StringWriter();
    StringWriter wrong = new StringWriter();

    int tooManyCode =
        Main.execute(
            new String[] {
              "run",
              "--work-dir",
              work.toString(),
              "--demo-mode",
              "false",
              "--table-uri",
              "events",
              "--z-order-columns",
              "customer_id,amount,account,event_id,customer_id"
            },
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(tooMany, true),
            Map.of());
    int wrongCode =
        Main.execute(
            new String[] {
              "run",
              "--work-dir",
              work.toString(),
              "--demo-mode",
              "false",
              "--table-uri",
              "events",
              "--z-order-columns",
              "event_date,colour"
            },
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(wrong, true),
            Map.of());

    assertThat(tooManyCode).isEqualTo(2);
    assertThat(tooMany.toString())
        .contains("at most 4 columns")
        .contains("must not name customer_id twice");
    assertThat(wrongCode).isEqualTo(2);
    assertThat(wrong.toString())
        .contains(
            "colour is not a column of the table (columns: event_id, customer_id, account, amount, event_date)")
        .contains("event_date is a partition column");
    assertThat(new KernelDeltaTables(storage).loadLatest(table).version()).isEqualTo(2);
  }
}
