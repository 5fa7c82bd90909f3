package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.LazyText;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.values.RawJson;
import dev.retryaudit.report.JsonParts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Findings kept as bytes read back equal, every field and every kind of evidence value, to the same JSON line:
 * numbers at the ends of their range, text of chars a byte each and of chars past 255, and blocks of one writer.
 */
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

    @Test
    void numbersAtTheEndsOfTheirRangeAndEveryKindOfTextReadBackEqual() {
        List<Finding> findings = new ArrayList<>();
        for (Integer attempt : Arrays.asList(null, 0, 1, -1, 63, 64, -65, Integer.MAX_VALUE, Integer.MIN_VALUE)) {
            findings.add(Finding.builder().rule("retry-after/early").severity(Severity.ERROR).operation("")
                    .attempt(attempt).message("m").evidence(Evidence.of()
                            .put("long", Long.MIN_VALUE).put("max", Long.MAX_VALUE).put("zero", 0L).put("int", Integer.MIN_VALUE)
                            .put("nan", Double.NaN).put("minus_zero", -0.0).put("tiny", Double.MIN_VALUE)
                            .put("latin1", "caf\u00e9 \u00ff\u0000\u007f\u0080").put("wide_last", "abc\u0100")
                            .put("wide_first", "\u20ac and more").put("empty", "").put("surrogates", "\uD83D\uDE00 \uDBFF"))
                    .at(new Location("/v1/traces", Integer.MAX_VALUE, Long.MAX_VALUE, 1L << 35, "/a/\u00e9")).build());
        }
        assertThat(FindingBytes.read(FindingBytes.write(findings))).isEqualTo(findings);
    }

    @Test
    void aWriterKeepsItsBlocksApartAndManyNamesReadBack() {
        List<Finding> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add(Finding.builder().rule("rule/" + i).severity(Severity.values()[i % Severity.values().length])
                    .tool(i % 2 == 0 ? "tool" : "tool " + i).message("finding " + i)
                    .evidence(Evidence.of().put("key_" + i, i).put("shared", "again"))
                    .at(new Location("source " + i % 7, i, i + 1L, 1, null)).build());
        }
        FindingBytes.Writer writer = new FindingBytes.Writer();
        byte[] first = writer.block(many);
        byte[] second = writer.block(many.subList(290, 300));
        byte[] third = writer.block(List.of());
        assertThat(FindingBytes.read(first)).isEqualTo(many);
        assertThat(FindingBytes.read(second)).isEqualTo(many.subList(290, 300));
        assertThat(FindingBytes.read(third)).isEmpty();
        assertThat(second).isEqualTo(FindingBytes.write(many.subList(290, 300)));
    }
}
