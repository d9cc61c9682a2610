package company.data.compactor.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.config.TableAllowlist;
import company.data.compactor.error.CompactorException;
import company.data.compactor.testing.RefusedInputs;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The one admission step, without I/O: every trigger, one set of rules, one message. */
class AdmissionTest {

  private static final Path WORK = Path.of("/work");

  private static Admission admission(Map<String, String> environment) {
    return Admission.configuredBy(environment, WORK);
  }

  @ParameterizedTest
  @EnumSource(Trigger.class)
  void theSameBadInput_getsTheSameRefusal_fromEveryTrigger(Trigger trigger) {
    assertThatThrownBy(() -> admission(Map.of()).admit(trigger, RefusedInputs.INPUTS))
        .isInstanceOf(CompactorException.class)
        .hasMessage(RefusedInputs.message());
  }

  @Test
  void brokenInputs_andTheAllowlist_areReportedTogether() {
    Map<String, String> env = Map.of(TableAllowlist.ENVIRONMENT_VARIABLE, "s3://bkt/tables");

    assertThatThrownBy(
            () ->
                admission(env)
                    .admit(
                        Trigger.CLI,
                        Map.of("table_uri", "s3://bkt/elsewhere/t", "target_file_size_mb", 0)))
        .hasMessage(
            "Invalid request, 2 rules broken: target_file_size_mb=0: must be > 0;"
                + " table_uri=s3://bkt/elsewhere/t: is not under an allowed table prefix"
                + " (s3://bkt/tables); ask the operator to add it to"
                + " COMPACTOR_ALLOWED_TABLE_PREFIXES. Nothing was read or written; fix the values and"
                + " run again.");
  }

  @ParameterizedTest
  @EnumSource(
      value = Trigger.class,
      names = {"CLI", "DIRECT_EVENT", "HANDOFF", "SCHEDULE"})
  void anEmptyAllowlist_meansAnyTable_inTheLocalAndMaintenanceDeployments(Trigger trigger) {
    AdmittedRun run = admission(Map.of()).admit(trigger, Map.of("table_uri", "s3://any/t"));

    assertThat(run.location().uri()).isEqualTo("s3://any/t");
    assertThat(run.trigger()).isEqualTo(trigger);
  }

  @Test
  void anEmptyAllowlist_meansNoTable_inTheWebhookDeployment_andThatIsTheAllowlistsRefusal() {
    CompactorException refusal =
        org.junit.jupiter.api.Assertions.assertThrows(
            CompactorException.class,
            () -> admission(Map.of()).admit(Trigger.WEBHOOK, Map.of("table_uri", "s3://any/t")));

    assertThat(refusal.getMessage())
        .isEqualTo(
            "Invalid request, 1 rule broken: table_uri=s3://any/t: no table is allowed: this"
                + " deployment maintains no tables until the operator sets"
                + " COMPACTOR_ALLOWED_TABLE_PREFIXES. Nothing was read or written; fix the values"
                + " and run again.");
    assertThat(Admission.refusedByAllowlistOnly(refusal)).isTrue();
  }

  @Test
  void remoteTriggers_readTheirInputsOverTheServerDefaults_andNeverSeedTheDemo() {
    Map<String, String> env =
        Map.of(
            RemoteInputs.DEFAULTS_VARIABLE,
            "{\"vacuum_dry_run\": false}",
            TableAllowlist.ENVIRONMENT_VARIABLE,
            "s3://bkt");
    Map<String, Object> given = Map.of("table_uri", "s3://bkt/t");

    AdmittedRun scheduled = admission(env).admit(Trigger.SCHEDULE, given);
    AdmittedRun local = admission(env).admit(Trigger.CLI, given);

    assertThat(scheduled.request().demoMode()).isFalse();
    assertThat(scheduled.request().vacuumDryRun()).isFalse();
    assertThat(local.request().demoMode()).isTrue();
    assertThat(local.request().vacuumDryRun()).isTrue();
  }

  @Test
  void aMalformedAllowlistPrefix_isAConfigurationError_beforeAnyInputIsRead() {
    assertThatThrownBy(
            () -> admission(Map.of(TableAllowlist.ENVIRONMENT_VARIABLE, "s3://bkt/tables/..")))
        .hasMessageStartingWith(
            "Invalid configuration, 1 setting broken: COMPACTOR_ALLOWED_TABLE_PREFIXES=s3://bkt/tables/..");
  }
}
