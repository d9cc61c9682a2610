package company.data.compactor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Violation;
import company.data.compactor.model.TableLocation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TableAllowlistTest {

  private static final Path WORK = Path.of("/work");

  private static TableLocation at(String uri) {
    return TableLocation.parse(uri, WORK);
  }

  @Test
  void blank_allowsEveryTable() {
    assertThat(
            TableAllowlist.parse(" ", WORK)
                .violations(at("s3://any/t"), TableAllowlist.Empty.ANY_TABLE))
        .isEmpty();
    assertThat(
            TableAllowlist.parse(null, WORK).violations(at("/x"), TableAllowlist.Empty.ANY_TABLE))
        .isEmpty();
  }

  @Test
  void allowsTablesAtOrBelowAPrefix_onlyAtPathBoundaries() {
    TableAllowlist allowlist = TableAllowlist.parse("s3://lake/tables/, demo_delta_table", WORK);

    assertThat(allowlist.violations(at("s3://lake/tables/events"), TableAllowlist.Empty.ANY_TABLE))
        .isEmpty();
    assertThat(allowlist.violations(at("s3://lake/tables"), TableAllowlist.Empty.ANY_TABLE))
        .isEmpty();
    assertThat(allowlist.violations(at("demo_delta_table"), TableAllowlist.Empty.ANY_TABLE))
        .isEmpty();
    assertThat(
            allowlist.violations(at("s3://lake/tables-old/events"), TableAllowlist.Empty.ANY_TABLE))
        .containsExactly(
            new Violation(
                "table_uri",
                "s3://lake/tables-old/events",
                "is not under an allowed table prefix (s3://lake/tables, file:/work/demo_delta_table);"
                    + " ask the operator to add it to COMPACTOR_ALLOWED_TABLE_PREFIXES"));
    assertThat(allowlist.violations(at("s3://other/tables/events"), TableAllowlist.Empty.ANY_TABLE))
        .hasSize(1);
  }

  @Test
  void aPrefixThatIsNotACanonicalLocation_isAConfigurationError_namingEveryBadPrefix() {
    assertThatThrownBy(
            () -> TableAllowlist.parse("s3://lake/tables/.., s3://ok/t, s3://lake//x", WORK))
        .isInstanceOf(CompactorException.class)
        .hasMessage(
            "Invalid configuration, 2 settings broken: COMPACTOR_ALLOWED_TABLE_PREFIXES=s3://lake/tables/..:"
                + " must not contain . or .. path segments; they are refused, never resolved: name the table by its"
                + " canonical path; COMPACTOR_ALLOWED_TABLE_PREFIXES=s3://lake//x: must not contain empty path segments"
                + " (//). Nothing was read or written; fix the setting and run again.");
  }

  @Test
  void aBucketPrefix_allowsEveryTableInTheBucket_andNothingElse() {
    TableAllowlist allowlist = TableAllowlist.parse("s3://lake", WORK);

    assertThat(allowlist.violations(at("s3://lake/t"), TableAllowlist.Empty.ANY_TABLE)).isEmpty();
    assertThat(allowlist.violations(at("s3://lakehouse/t"), TableAllowlist.Empty.ANY_TABLE))
        .hasSize(1);
  }
}
