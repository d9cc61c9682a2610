package company.data.compactor.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SlackMessagesTest {

  @Test
  void failureAlert_escapesSlackControlCharacters_andCarriesNoMessageText() throws Exception {
    String json =
        new ObjectMapper()
            .writeValueAsString(
                SlackMessages.failure(
                    new FailureAlert(
                        "run-1",
                        "s3://b/t<a>&b",
                        "run",
                        "OPERATION_FAILED",
                        "2026-11-30T02:00:00Z")));

    assertThat(json).contains("`s3://b/t&lt;a&gt;&amp;b`").doesNotContain("t<a>");
    assertThat(json).contains("\"color\":\"#E01E5A\"");
  }

  @Test
  void escape_handlesTheThreeControlCharacters() {
    assertThat(SlackMessages.escape("a<b>&c")).isEqualTo("a&lt;b&gt;&amp;c");
  }
}
