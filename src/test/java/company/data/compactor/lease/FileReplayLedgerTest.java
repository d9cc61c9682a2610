package company.data.compactor.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileReplayLedgerTest {

  private static final Instant NOW = Instant.parse("2026-11-30T02:00:00Z");
  private static final String DIGEST = "0123456789abcdef0123456789abcdef";

  @TempDir Path dir;

  @Test
  void aDigestIsFirstUsedOnce_untilItsRecordExpires() {
    FileReplayLedger ledger = new FileReplayLedger(dir);

    assertThat(ledger.recordFirstUse(DIGEST, NOW, NOW.plusSeconds(300))).isTrue();
    assertThat(ledger.recordFirstUse(DIGEST, NOW.plusSeconds(299), NOW.plusSeconds(600))).isFalse();
    assertThat(
            new FileReplayLedger(dir)
                .recordFirstUse(DIGEST, NOW.plusSeconds(1), NOW.plusSeconds(600)))
        .as("another process sees the record")
        .isFalse();
    assertThat(ledger.recordFirstUse(DIGEST, NOW.plusSeconds(300), NOW.plusSeconds(600)))
        .as("expired records are forgotten")
        .isTrue();
    assertThat(ledger.recordFirstUse("fedcba9876543210fedcba9876543210", NOW, NOW.plusSeconds(300)))
        .isTrue();
  }

  @Test
  void onlyHexDigestsNameFiles() {
    assertThatThrownBy(() -> new FileReplayLedger(dir).recordFirstUse("../../etc/passwd", NOW, NOW))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
