package company.data.compactor.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import company.data.compactor.error.CompactorException;
import company.data.compactor.lease.Leases;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeaseTtlTest {

  private static Duration ttl(String value) {
    return Wiring.leaseTtl(Map.of(Wiring.LEASE_TTL_VARIABLE, value));
  }

  @Test
  void unset_isTheDefault_andTheBoundsAreAccepted() {
    assertThat(Wiring.leaseTtl(Map.of())).isEqualTo(Leases.DEFAULT_TTL);
    assertThat(ttl("3")).isEqualTo(Duration.ofSeconds(3));
    assertThat(ttl("86400")).isEqualTo(Duration.ofDays(1));
  }

  /** One past each bound, and a value whose expiry would overflow, are refused before any work. */
  @ParameterizedTest
  @ValueSource(strings = {"2", "86401", "99999999999", "9223372036854775807", "1e3", "x"})
  void outOfRange_isRefused_namingTheRange(String value) {
    CompactorException e = catchThrowableOfType(CompactorException.class, () -> ttl(value));

    assertThat(e.kind()).isEqualTo(CompactorException.Kind.INVALID_REQUEST);
    assertThat(e.getMessage())
        .contains(
            "COMPACTOR_LEASE_TTL_SECONDS="
                + value
                + ": must be a whole number of seconds from 3 to 86400");
  }
}
