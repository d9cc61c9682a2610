package company.data.compactor.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlReportTest {

  @Test
  void escape_coversTextAndAttributes() {
    assertThat(HtmlReport.esc("<script>alert('x')</script> & \"q\""))
        .isEqualTo("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
    assertThat(HtmlReport.esc(null)).isEmpty();
  }
}
