package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text format prints every input string with its control characters escaped, coloured or not. */
class TextReportWriterTest {
    private static final String SGR = "\u001b\\[[0-9;]*m";

    @Test
    void hostileStringsNeverReachTheTerminalRaw() throws IOException {
        Report r = HostileStrings.report();
        String out = render(r, false);
        assertThat(HostileStrings.hasRawControl(out)).isFalse();
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).isEqualTo(Escaping.controls(HostileStrings.SOURCE) + ":3:4: error: "
                + Escaping.controls(HostileStrings.MESSAGE) + " [contract/attempt-gap]");
        assertThat(lines.get(2)).endsWith(Escaping.controls(HostileStrings.LONG) + " [contract/attempt-gap]");
        assertThat(lines.get(lines.size() - 1)).contains("1 finding suppressed by the baseline base\\e[0m%,:.json");
    }

    @Test
    void colourAddsOnlyOurOwnSgrSequences() throws IOException {
        Report r = HostileStrings.report();
        String colored = render(r, true);
        assertThat(colored).contains("\u001b[1;31merror:\u001b[0m");
        String stripped = colored.replaceAll(SGR, "");
        assertThat(HostileStrings.hasRawControl(stripped)).isFalse();
        assertThat(stripped).isEqualTo(render(r, false));
    }

    @Test
    void withoutColourThereIsNoEscapeAtAll() throws IOException {
        for (ReportContractTest.Scenario s : ReportContractTest.scenarios()) {
            assertThat(ReportContractTest.render(s, new TextReportWriter(false))).doesNotContain("\u001b");
        }
    }

    @Test
    void everySeverityHasAColour() {
        for (Severity s : Severity.values()) {
            assertThat(TextReportWriter.style(s)).matches("1;3[0-7]");
        }
    }

    private static String render(Report r, boolean color) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TextReportWriter(color).write(r, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
