package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.CliRunner.Result;
import company.data.compactor.testing.RefusedInputs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adversarial inputs through the command line: a table URI cannot climb out of an allowed prefix, a
 * log cannot point the compactor at files outside the table root, and hostile values end as named
 * validation errors, never as crashes.
 */
class AdversarialCliIT {

  @TempDir Path work;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);

  private Result cli(Map<String, String> environment, String... args) {
    return CliRunner.run(environment, args);
  }

  private TableLocation seededDemo(String relative) {
    TableLocation location = TableLocation.parse(relative, work);
    new DemoSeeder(storage, tables, new KernelTableWriter(storage)).seed(location);
    return location;
  }

  /** Every file under {@code dir} but the lease records kept with each table. */
  private static List<String> filesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(Path::toString)
          .filter(f -> !f.contains("/" + TableLeaseStore.DIRECTORY + "/"))
          .sorted()
          .toList();
    }
  }

  @Test
  void run_withDotDotOutOfTheAllowedPrefix_exit2_andReadsNothing() throws Exception {
    TableLocation secret = seededDemo("secret/t");
    List<String> before = filesUnder(work);
    String allowed = work.resolve("tables").toString();
    String climbing = work.resolve("tables").toString() + "/../secret/t";

    Result result =
        cli(
            Map.of("COMPACTOR_ALLOWED_TABLE_PREFIXES", allowed),
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            climbing);

    assertThat(result.code()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "compactor: error: Invalid request, 1 rule broken: table_uri="
                + climbing
                + ": must not contain . or .. path segments; they are refused, never resolved: name the table by its"
                + " canonical path. Nothing was read or written; fix the values and run again.\n");
    assertThat(filesUnder(work)).isEqualTo(before);
    assertThat(tables.loadLatest(secret).version()).isEqualTo(30);
  }

  @Test
  void run_withAnS3UriClimbingOutOfTheAllowedPrefix_exit2_beforeAnyRequest() {
    Result result =
        cli(
            Map.of("COMPACTOR_ALLOWED_TABLE_PREFIXES", "s3://bkt/tables"),
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "s3://bkt/tables/../secret/t");

    assertThat(result.code()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "compactor: error: Invalid request, 1 rule broken:"
                + " table_uri=s3://bkt/tables/../secret/t: must not contain . or .. path segments; they are refused,"
                + " never resolved: name the table by its canonical path. Nothing was read or written; fix the values"
                + " and run again.\n");
  }

  @Test
  void everyCommand_refusesPercentEncodedDotSegments_exit2() {
    for (String command : List.of("run", "plan", "inspect", "vacuum", "history")) {
      Result result =
          cli(
              Map.of(),
              command,
              "--work-dir",
              work.toString(),
              "--table-uri",
              "s3://bkt/tables/%2e%2e/secret");

      assertThat(result.code()).as(command + ": " + result.err()).isEqualTo(2);
      assertThat(result.err())
          .as(command)
          .contains(
              "table_uri=s3://bkt/tables/%2e%2e/secret: must not contain percent-encoded . or .. path segments (%2e)");
    }
  }

  @Test
  void anAllowlistPrefixWithDotDot_isAConfigurationError_exit2() {
    Result result =
        cli(
            Map.of("COMPACTOR_ALLOWED_TABLE_PREFIXES", "s3://bkt/tables/../"),
            "inspect",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "s3://bkt/tables/t");

    assertThat(result.code()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "compactor: error: Invalid configuration, 1 setting broken:"
                + " COMPACTOR_ALLOWED_TABLE_PREFIXES=s3://bkt/tables/../: must not contain . or .. path segments; they"
                + " are refused, never resolved: name the table by its canonical path. Nothing was read or written; fix"
                + " the setting and run again.\n");
  }

  /**
   * Appends one commit adding a copy of {@code source} logged as {@code loggedPath}, stored at
   * {@code stored}.
   */
  private static void addCopy(
      TableLocation table, long version, DataFile source, String loggedPath, Path stored)
      throws IOException {
    Files.createDirectories(stored.getParent());
    Files.copy(Path.of(source.path().substring("file:".length())), stored);
    String partition =
        source.partition().values().entrySet().stream()
            .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
            .reduce((a, b) -> a + "," + b)
            .orElse("");
    String add =
        "{\"add\":{\"path\":\""
            + loggedPath
            + "\",\"partitionValues\":{"
            + partition
            + "},\"size\":"
            + Files.size(stored)
            + ",\"modificationTime\":"
            + Files.getLastModifiedTime(stored).toMillis()
            + ",\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":"
            + source.numRecords().orElseThrow()
            + "}\"}}\n";
    String commitInfo =
        "{\"commitInfo\":{\"timestamp\":"
            + System.currentTimeMillis()
            + ",\"operation\":\"WRITE\"}}\n";
    Files.writeString(
        table.localPath().resolve("_delta_log/%020d.json".formatted(version)), commitInfo + add);
  }

  private void assertRefusedNamingThePath(TableLocation table, String resolved, String logged)
      throws Exception {
    List<String> before = filesUnder(work);
    for (String command : List.of("run", "vacuum", "inspect", "plan")) {
      List<String> args =
          command.equals("run")
              ? List.of(
                  "run", "--work-dir", work.toString(), "--demo-mode", "false", "--table-uri", "t")
              : command.equals("vacuum")
                  ? List.of(
                      "vacuum",
                      "--work-dir",
                      work.toString(),
                      "--table-uri",
                      "t",
                      "--vacuum-dry-run",
                      "false",
                      "--vacuum-mode",
                      "full")
                  : List.of(command, "--work-dir", work.toString(), "--table-uri", "t");
      Result result = cli(Map.of(), args.toArray(String[]::new));

      assertThat(result.code()).as(command + ": " + result.err()).isEqualTo(1);
      assertThat(result.err())
          .as(command)
          .isEqualTo(
              "compactor: error: Table "
                  + table
                  + " is not supported:"
                  + " its log references 1 active file outside the table root: "
                  + resolved
                  + " (logged as "
                  + logged
                  + "). The compactor never reads, writes beside or deletes files outside the root; nothing was read or"
                  + " written. Rewrite the table with paths under its root.\n");
    }
    assertThat(filesUnder(work)).as("nothing written, the log unchanged").isEqualTo(before);
  }

  @Test
  void aLogAddPathClimbingOutOfTheRoot_refusesTheTable_namingThePath_andWritesNothing()
      throws Exception {
    TableLocation table = seededDemo("t");
    DataFile first = tables.loadLatest(table).activeFiles().get(0);
    addCopy(table, 31, first, "../sibling/x.parquet", work.resolve("sibling/x.parquet"));

    assertRefusedNamingThePath(
        table, "file:" + work.resolve("sibling/x.parquet"), "../sibling/x.parquet");
  }

  /**
   * The vacuum command lists the table while its snapshot loads; a table refused by that load must
   * still be left exactly as it was: the listing only reads, and our own stale temporary object in
   * the table is swept only once the table has been loaded and checked.
   */
  @Test
  void vacuum_refusedWhileItsListingRan_sweepsNothing_andSweepsOnceTheTableIsReadable()
      throws Exception {
    TableLocation table = seededDemo("t");
    DataFile first = tables.loadLatest(table).activeFiles().get(0);
    Path partition = table.localPath().resolve("event_date=2026-10-17");
    Path leftover =
        partition.resolve(".compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet");
    Files.writeString(leftover, "12345");
    Files.setLastModifiedTime(leftover, FileTime.from(Instant.now().minus(Duration.ofHours(169))));
    addCopy(table, 31, first, "../sibling/x.parquet", work.resolve("sibling/x.parquet"));
    List<String> before = filesUnder(work);
    String[] vacuum = {
      "vacuum",
      "--work-dir",
      work.toString(),
      "--table-uri",
      "t",
      "--vacuum-dry-run",
      "false",
      "--vacuum-mode",
      "full",
      "--json"
    };

    Result refused = cli(Map.of(), vacuum);

    assertThat(refused.code()).as(refused.err()).isEqualTo(1);
    assertThat(refused.err()).contains("its log references 1 active file outside the table root");
    assertThat(leftover).as("our stale temporary object, in a refused table").exists();
    assertThat(filesUnder(work)).as("nothing written or deleted").isEqualTo(before);

    Files.delete(table.localPath().resolve("_delta_log/%020d.json".formatted(31)));
    Result readable = cli(Map.of(), vacuum);

    assertThat(readable.code()).as(readable.err()).isZero();
    assertThat(leftover).as("swept once the table loads").doesNotExist();
    assertThat(
            new ObjectMapper()
                .readTree(readable.out())
                .get("sweep")
                .get("temporary_objects_swept")
                .asInt())
        .isEqualTo(1);
  }

  @Test
  void aLogAddPathAbsoluteElsewhere_refusesTheTable_namingThePath_andWritesNothing()
      throws Exception {
    TableLocation table = seededDemo("t");
    DataFile first = tables.loadLatest(table).activeFiles().get(0);
    String elsewhere = "file:" + work.resolve("elsewhere/x.parquet");
    addCopy(table, 31, first, elsewhere, work.resolve("elsewhere/x.parquet"));

    assertRefusedNamingThePath(table, elsewhere, elsewhere);
  }

  @Test
  void aLogAddPathAbsoluteInsideTheRoot_stillCompacts() throws Exception {
    TableLocation table = seededDemo("t");
    DataFile first = tables.loadLatest(table).activeFiles().get(0);
    Path copy =
        Path.of(first.path().substring("file:".length())).resolveSibling("absolute-copy.parquet");
    addCopy(table, 31, first, "file://" + copy, copy);

    Result result =
        cli(
            Map.of(),
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "t",
            "--z-order-columns",
            "");

    assertThat(result.code()).as(result.err()).isZero();
    assertThat(result.err()).contains("Compacted: 31 -> 3 files");
    TableSnapshot after = tables.loadLatest(table);
    assertThat(after.activeFiles())
        .hasSize(3)
        .allSatisfy(f -> assertThat(f.path()).startsWith(table.uri() + "/event_date="));
    assertThat(after.activeFiles().stream().mapToLong(f -> f.numRecords().orElseThrow()).sum())
        .isEqualTo(1550);
  }

  @Test
  void aLogAddPathInsideTheRootSpelledFILE_compacts_andItsRemoveRepeatsTheLoggedPathByteForByte()
      throws Exception {
    TableLocation table = seededDemo("t");
    DataFile first = tables.loadLatest(table).activeFiles().get(0);
    Path copy =
        Path.of(first.path().substring("file:".length())).resolveSibling("upper-copy.parquet");
    String logged = "FILE:" + copy;
    addCopy(table, 31, first, logged, copy);

    Result result =
        cli(
            Map.of(),
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "t",
            "--z-order-columns",
            "");

    assertThat(result.code()).as(result.err()).isZero();
    assertThat(result.err()).contains("Compacted: 31 -> 3 files");
    List<String> removes = new java.util.ArrayList<>();
    try (Stream<Path> commits = Files.list(table.localPath().resolve("_delta_log"))) {
      for (Path commit : commits.filter(p -> p.toString().endsWith(".json")).toList()) {
        for (String line : Files.readAllLines(commit)) {
          com.fasterxml.jackson.databind.JsonNode remove =
              new com.fasterxml.jackson.databind.ObjectMapper().readTree(line).path("remove");
          if (!remove.isMissingNode()) {
            removes.add(remove.path("path").asText());
          }
        }
      }
    }
    assertThat(removes)
        .as("the remove repeats add.path, not the canonical spelling")
        .contains(logged)
        .doesNotContain("file:" + copy);
    assertThat(
            tables.loadLatest(table).activeFiles().stream()
                .mapToLong(f -> f.numRecords().orElseThrow())
                .sum())
        .isEqualTo(1550);
  }

  /**
   * Every command refuses {@code table}, naming {@code described}; nothing is written inside or
   * outside.
   */
  private void assertRefusedNamingTheLink(TableLocation table, String described) throws Exception {
    List<String> before = filesUnder(work);
    for (String command : List.of("run", "vacuum", "inspect", "plan")) {
      List<String> args =
          command.equals("run")
              ? List.of(
                  "run",
                  "--work-dir",
                  work.toString(),
                  "--demo-mode",
                  "false",
                  "--table-uri",
                  "t",
                  "--z-order-columns",
                  "")
              : command.equals("vacuum")
                  ? List.of(
                      "vacuum",
                      "--work-dir",
                      work.toString(),
                      "--table-uri",
                      "t",
                      "--vacuum-dry-run",
                      "false",
                      "--vacuum-mode",
                      "full")
                  : List.of(command, "--work-dir", work.toString(), "--table-uri", "t");
      Result result = cli(Map.of(), args.toArray(String[]::new));

      assertThat(result.code()).as(command + ": " + result.err()).isEqualTo(1);
      assertThat(result.err())
          .as(command)
          .isEqualTo(
              "compactor: error: Table "
                  + table
                  + " is not supported:"
                  + " its log references 1 active file outside the table root: "
                  + described
                  + ". The compactor never reads, writes beside or deletes files outside the root; nothing was read or"
                  + " written. Rewrite the table with paths under its root.\n");
    }
    assertThat(filesUnder(work))
        .as("nothing written inside or outside the root, the log unchanged")
        .isEqualTo(before);
  }

  @Test
  void anActiveFileThatIsASymlinkOutsideTheRoot_refusesTheTable_namingTheLink_andWritesNothing()
      throws Exception {
    TableLocation table = seededDemo("t");
    DataFile first = tables.loadLatest(table).activeFiles().get(0);
    Path victim = work.resolve("outside/victim.parquet");
    String relative =
        first.logPath().substring(0, first.logPath().lastIndexOf('/') + 1) + "link.parquet";
    addCopy(table, 31, first, relative, victim);
    Files.createSymbolicLink(table.localPath().resolve(relative), victim);

    assertRefusedNamingTheLink(
        table,
        table.child(relative)
            + " (logged as "
            + relative
            + ", a symbolic link to file:"
            + victim.toRealPath()
            + ")");
  }

  @Test
  void anActiveFileInASymlinkedDirectoryOutsideTheRoot_refusesTheTable_namingIt_andWritesNothing()
      throws Exception {
    TableLocation table = seededDemo("t");
    DataFile first = tables.loadLatest(table).activeFiles().get(0);
    Path outside = work.resolve("outside/dir/g.parquet");
    addCopy(table, 31, first, "linked/g.parquet", outside);
    Files.createSymbolicLink(table.localPath().resolve("linked"), outside.getParent());

    assertRefusedNamingTheLink(
        table,
        table.child("linked/g.parquet")
            + " (logged as linked/g.parquet, a symbolic"
            + " link to file:"
            + outside.toRealPath()
            + ")");
  }

  @Test
  void vacuum_neverDeletesThroughASymlinkedDirectoryOrFile_pointingOutsideTheRoot()
      throws Exception {
    TableLocation table = seededDemo("t");
    Path outsideDir = Files.createDirectories(work.resolve("outside/dir"));
    Path old = Files.writeString(outsideDir.resolve("old.parquet"), "someone else's data");
    Path oldFile =
        Files.writeString(work.resolve("outside/old-file.parquet"), "someone else's file");
    Path orphan =
        Files.writeString(table.localPath().resolve("orphan.parquet"), "from a crashed writer");
    for (Path p : List.of(old, oldFile, orphan)) {
      Files.setLastModifiedTime(
          p,
          java.nio.file.attribute.FileTime.from(
              java.time.Instant.now().minus(java.time.Duration.ofDays(30))));
    }
    Files.createSymbolicLink(table.localPath().resolve("junk"), outsideDir);
    Files.createSymbolicLink(
        table.localPath().resolve("event_date=2026-10-17/old-link.parquet"), oldFile);

    Result result =
        cli(
            Map.of(),
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "t",
            "--vacuum-mode",
            "full",
            "--vacuum-dry-run",
            "false");

    assertThat(result.code()).as(result.err()).isZero();
    assertThat(orphan).as("the untracked file inside the root goes").doesNotExist();
    assertThat(old).as("never deleted through the symlinked directory").exists();
    assertThat(oldFile).as("never deleted through the symlinked file").exists();
  }

  @Test
  void run_aPartitionDirectorySymlinkedOutsideTheRoot_refusesTheRun_beforeWritingAnything()
      throws Exception {
    TableLocation table = seededDemo("t");
    String date = "2026-10-19";
    List<DataFile> files =
        tables.loadLatest(table).activeFiles().stream()
            .filter(f -> f.logPath().startsWith("event_date=" + date + "/"))
            .toList();
    Path partitionDir = table.localPath().resolve("event_date=" + date);
    Files.move(partitionDir, table.localPath().resolve("moved"));
    StringBuilder commit =
        new StringBuilder(
            "{\"commitInfo\":{\"timestamp\":"
                + System.currentTimeMillis()
                + ",\"operation\":\"WRITE\"}}\n");
    for (DataFile file : files) {
      String moved = "moved/" + file.logPath().substring(file.logPath().lastIndexOf('/') + 1);
      commit
          .append("{\"remove\":{\"path\":\"")
          .append(file.logPath())
          .append("\",\"deletionTimestamp\":1,")
          .append("\"dataChange\":false}}\n")
          .append("{\"add\":{\"path\":\"")
          .append(moved)
          .append("\",\"partitionValues\":{\"event_date\":\"")
          .append(date)
          .append("\"},\"size\":")
          .append(file.sizeBytes())
          .append(",\"modificationTime\":1,")
          .append("\"dataChange\":false,\"stats\":\"{\\\"numRecords\\\":")
          .append(file.numRecords().orElseThrow())
          .append("}\"}}\n");
    }
    Files.writeString(table.localPath().resolve("_delta_log/%020d.json".formatted(31)), commit);
    Path outside = Files.createDirectories(work.resolve("outside/dir"));
    Files.createSymbolicLink(partitionDir, outside);
    List<String> before = filesUnder(work);

    Result result =
        cli(
            Map.of(),
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "t",
            "--z-order-columns",
            "");

    assertThat(result.code()).as(result.err()).isEqualTo(1);
    assertThat(result.err())
        .startsWith(
            "compactor: error: Table "
                + table
                + " is not supported: partition"
                + " event_date="
                + date
                + " would be written to "
                + table.child("event_date=" + date)
                + ", which really is"
                + " file:"
                + outside.toRealPath()
                + ", outside the table root (a symbolic link)");
    try (Stream<Path> written = Files.list(outside)) {
      assertThat(written).as("nothing written outside the root").isEmpty();
    }
    assertThat(filesUnder(work)).as("no partition compacted, the log unchanged").isEqualTo(before);
  }

  @Test
  void run_aPartitionFilterOf3000NestedParentheses_exit2_namingTheLimit() {
    String filter = "(".repeat(3000) + "event_date = '2026-10-17'" + ")".repeat(3000);

    Result result =
        cli(Map.of(), "run", "--work-dir", work.toString(), "--partition-filter", filter);

    assertThat(result.code()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .startsWith(
            "compactor: error: Invalid request, 1 rule broken: partition_filter=" + "(".repeat(60))
        .contains("... (6025 characters): must nest parentheses at most 32 deep (found 3000)");
    assertThat(work.resolve("demo_delta_table")).doesNotExist();
  }

  @Test
  void run_aPartitionFilterLongerThanTheLimit_exit2_namingTheLimit() {
    String filter = "event_date IN (" + "'2026-10-17', ".repeat(800) + "'2026-10-18')";

    Result result =
        cli(Map.of(), "run", "--work-dir", work.toString(), "--partition-filter", filter);

    assertThat(result.code()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .contains("(" + filter.length() + " characters): must be at most 10000 characters long");
  }

  @Test
  void run_withTheSharedRefusedInputs_exit2_withTheAdmissionMessage_andWritesNothing()
      throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("run", "--work-dir", work.toString()));
    args.addAll(RefusedInputs.FLAGS);

    Result result = cli(Map.of(), args.toArray(String[]::new));

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err().strip()).isEqualTo("compactor: error: " + RefusedInputs.message());
    assertThat(filesUnder(work)).isEmpty();
  }
}
