package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.LazyText;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.values.RawJson;
import dev.retryaudit.report.JsonParts;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Findings kept as bytes read back equal, every field and every kind of evidence value, to the same JSON line. */
class FindingBytesTest {
    @Test
    void findingsReadBackEqualAndWriteTheSameLines() {
        char[] longText = new char[30_000];
        Arrays.fill(longText, 'é');
        longText[17] = '\uD800';
        LazyText lazy = () -> "built when read, \uDC00 an unpaired surrogate kept";
        List<Finding> findings = List.of(
                Finding.builder().rule("retry-after/early").severity(Severity.ERROR).operation("t/s").attempt(2)
                        .tool("POST pay.example").run("run-1").message(lazy)
                        .evidence(Evidence.of().put("a", "x").put("b", 3L).put("c", 4).put("d", 0.25).put("e", true)
                                .put("f", false).put("g", null).put("h", new RawJson("{\"k\":[1,2]}"))
                                .put("i", List.of("p", 1L, List.of(true))).putTime("when", 1_788_789_720_123L))
                        .at(new Location("/v1/traces", 0, 12, 1, null)).build(),
                Finding.builder().rule("budget/retry-ratio").severity(Severity.WARNING).run(null)
                        .message(new String(longText)).evidence(Evidence.of())
                        .at(new Location("/v1/traces", 0, 3, 1, "/resourceSpans/0")).build(),
                Finding.builder().rule("retry-after/early").severity(Severity.NOTE).operation("t/s2").tool("POST pay.example")
                        .message("same names again").evidence(Evidence.of().put("a", "y"))
                        .at(new Location("/api/v2/spans", 1, 4, 1, "/resourceSpans/0")).build());
        List<Finding> back = FindingBytes.read(FindingBytes.write(findings));
        assertThat(back).isEqualTo(findings);
        assertThat(back).extracting(JsonParts::line)
                .containsExactlyElementsOf(findings.stream().map(JsonParts::line).toList());
        assertThat(FindingBytes.read(FindingBytes.write(List.of()))).isEmpty();
    }
}
