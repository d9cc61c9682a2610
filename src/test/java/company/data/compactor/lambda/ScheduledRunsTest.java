package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.admission.RemoteInputs;
import company.data.compactor.error.CompactorException;
import company.data.compactor.lease.FileLeaseStore;
import company.data.compactor.lease.Leases;
import company.data.compactor.testing.RefusedInputs;
import company.data.compactor.wiring.LeasedRuns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The schedule's validation: every entry checked before any table is touched. */
class ScheduledRunsTest {

  @TempDir Path work;

  private ScheduledRuns schedule(Map<String, String> environment) {
    return new ScheduledRuns(
        new ScheduledRuns.Parts(
            environment,
            work,
            new LeasedRuns(
                work,
                environment,
                Clock.systemUTC(),
                new Leases(
                    new FileLeaseStore(work.resolve("leases")),
                    Clock.systemUTC(),
                    Leases.DEFAULT_TTL)),
            () -> "run"));
  }

  private long filesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void anEntryWithRetention167Hours_refusesTheWholeSchedule_namingTheEntry_andTouchesNothing()
      throws Exception {
    ScheduledRuns runs =
        schedule(
            Map.of(
                ScheduledRuns.TABLES_VARIABLE,
                "[{\"table_uri\": \"a\", \"demo_mode\": true}, {\"table_uri\": \"b\", \"vacuum_retention_hours\": 167, \"target_file_size_mb\": 0}]"));

    assertThatThrownBy(runs::run)
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("tables[1].vacuum_retention_hours=167: must be >= 168")
        .hasMessageContaining("tables[1].target_file_size_mb=0: must be > 0");
    assertThat(filesUnder(work)).isZero();
  }

  @Test
  void serverDefaults_belowTheFloor_areRefusedToo() {
    ScheduledRuns runs =
        schedule(
            Map.of(
                ScheduledRuns.TABLES_VARIABLE, "[{\"table_uri\": \"a\"}]",
                RemoteInputs.DEFAULTS_VARIABLE, "{\"vacuum_retention_hours\": 24}"));

    assertThatThrownBy(runs::run)
        .hasMessageContaining("tables[0].vacuum_retention_hours=24: must be >= 168");
  }

  @Test
  void aTableOutsideTheAllowlist_refusesTheWholeSchedule() {
    ScheduledRuns runs =
        schedule(
            Map.of(
                ScheduledRuns.TABLES_VARIABLE,
                "[{\"table_uri\": \"s3://prod/tables/a\"}, {\"table_uri\": \"s3://other/x\"}]",
                "COMPACTOR_ALLOWED_TABLE_PREFIXES",
                "s3://prod/tables"));

    assertThatThrownBy(runs::run)
        .hasMessageContaining(
            "tables[1].table_uri=s3://other/x: is not under an allowed table prefix");
  }

  @Test
  void missingOrMalformedConfiguration_isAClearError() {
    assertThatThrownBy(() -> schedule(Map.of()).run())
        .hasMessageContaining("COMPACTOR_SCHEDULED_TABLES=: must list the tables to maintain");
    assertThatThrownBy(
            () -> schedule(Map.of(ScheduledRuns.TABLES_VARIABLE, "{\"table_uri\": \"a\"}")).run())
        .hasMessageContaining("must be a JSON array of request-input objects");
    assertThatThrownBy(() -> schedule(Map.of(ScheduledRuns.TABLES_VARIABLE, "[]")).run())
        .hasMessageContaining("must list at least one table");
  }

  @Test
  void anEntryClimbingOutOfTheAllowedPrefix_orANullEntry_refusesTheWholeSchedule_namingEach() {
    ScheduledRuns runs =
        schedule(
            Map.of(
                ScheduledRuns.TABLES_VARIABLE,
                "[{\"table_uri\": \"s3://prod/tables/../secret/t\"}, null]",
                "COMPACTOR_ALLOWED_TABLE_PREFIXES",
                "s3://prod/tables"));

    assertThatThrownBy(runs::run)
        .isInstanceOf(CompactorException.class)
        .hasMessage(
            "Invalid request, 2 rules broken: tables[0].table_uri=s3://prod/tables/../secret/t: must not"
                + " contain . or .. path segments; they are refused, never resolved: name the table by its canonical"
                + " path; tables[1].inputs=null: must be a JSON object of request inputs. Nothing was read or written;"
                + " fix the values and run again.");
  }

  @Test
  void anAllowlistPrefixWithDotDot_isAConfigurationError() {
    ScheduledRuns runs =
        schedule(
            Map.of(
                ScheduledRuns.TABLES_VARIABLE,
                "[{\"table_uri\": \"s3://prod/tables/a\"}]",
                "COMPACTOR_ALLOWED_TABLE_PREFIXES",
                "s3://prod/tables/.."));

    assertThatThrownBy(runs::run)
        .hasMessageStartingWith(
            "Invalid configuration, 1 setting broken: COMPACTOR_ALLOWED_TABLE_PREFIXES=s3://prod/tables/..: must not contain");
  }

  @Test
  void theSharedRefusedInputs_refuseTheSchedule_withTheAdmissionMessage_namingTheEntry()
      throws Exception {
    ScheduledRuns runs =
        schedule(
            Map.of(
                ScheduledRuns.TABLES_VARIABLE,
                new com.fasterxml.jackson.databind.ObjectMapper()
                    .writeValueAsString(java.util.List.of(RefusedInputs.INPUTS))));

    assertThatThrownBy(runs::run)
        .isInstanceOf(CompactorException.class)
        .hasMessage(RefusedInputs.message("tables[0]."));
    assertThat(filesUnder(work)).isZero();
  }
}
