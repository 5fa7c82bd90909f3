package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Workflow commands escaped exactly as the Actions toolkit does, so no input string can forge or break a command. */
class GithubReportWriterTest {
    private static final Pattern COMMAND = Pattern.compile("::(error|warning|notice) ([^:]*)::(.*)");

    private static String data(String s) throws IOException {
        StringWriter w = new StringWriter();
        GithubReportWriter.escape(w, s, false);
        return w.toString();
    }

    private static String property(String s) throws IOException {
        StringWriter w = new StringWriter();
        GithubReportWriter.escape(w, s, true);
        return w.toString();
    }

    @Test
    void escapesDataAndPropertiesLikeTheToolkit() throws IOException {
        assertThat(data("100%\r\nnext")).isEqualTo("100%25\\r\\nnext");
        assertThat(data("a::b, c:d %0A")).isEqualTo("a::b, c:d %250A");
        assertThat(property("a::b, c:d %0A")).isEqualTo("a%3A%3Ab%2C c%3Ad %250A");
        assertThat(property("%3A")).isEqualTo("%253A");
    }

    @Test
    void hostileStringsStayInsideTheirCommand() throws IOException {
        Report r = HostileStrings.report();
        String out = render(r);
        assertThat(HostileStrings.hasRawControl(out)).isFalse();
        List<String> lines = out.lines().toList();
        assertThat(lines).hasSize(r.findings().size() + 1);
        for (int i = 0; i < r.findings().size(); i++) {
            Finding f = r.findings().get(i);
            Matcher m = COMMAND.matcher(lines.get(i));
            assertThat(m.matches()).as(lines.get(i)).isTrue();
            assertThat(m.group(1)).isEqualTo(GithubReportWriter.command(f.severity()));
            Map<String, String> props = properties(m.group(2));
            assertThat(props.keySet()).containsExactly("file", "line", "col", "title");
            assertThat(props.get("file")).isEqualTo(Escaping.controls(f.location().source()));
            assertThat(props.get("line")).isEqualTo(Long.toString(f.location().line()));
            assertThat(props.get("title")).isEqualTo(f.rule());
            assertThat(unescape(m.group(3))).isEqualTo(Escaping.controls(f.message()));
        }
        assertThat(lines.get(0)).startsWith("::error file=evil\\e]0;owned\\u0007%2Cdir%3A/a%25b.json,line=3,col=4,");
        assertThat(lines.get(r.findings().size())).startsWith("retry-audit: ").doesNotStartWith("::")
                .contains("suppressed by the baseline base\\e[0m%,:.json");
    }

    @Test
    void aVeryLongMessageStaysOneCompleteLine() throws IOException {
        String line = render(HostileStrings.report()).lines().toList().get(2);
        Matcher m = COMMAND.matcher(line);
        assertThat(m.matches()).isTrue();
        assertThat(unescape(m.group(3))).isEqualTo(Escaping.controls(HostileStrings.LONG));
    }

    @Test
    void inputErrorsAreAnErrorAnnotationWithoutAFileForStdin() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new GithubReportWriter().writeError(new InputFailure("retry-audit", "0.1.0", 65,
                InputException.rejected("<stdin>", 2, 3, "$", "bad,\u001b: 5%").error()), out);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
                "::error title=retry-audit%3A input rejected::$: bad,\\e: 5%25\n"
                        + "retry-audit: input rejected (exit 65); no audit ran\n");
    }

    @Test
    void everySeverityHasACommand() {
        for (Severity s : Severity.values()) {
            assertThat(GithubReportWriter.command(s)).isIn("error", "warning", "notice");
        }
    }

    private static String render(Report r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new GithubReportWriter().write(r, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Splits {@code k=v,k=v}: escaped values hold no comma or colon, so the split is exact. */
    private static Map<String, String> properties(String s) {
        Map<String, String> props = new LinkedHashMap<>();
        for (String kv : s.split(",")) {
            int eq = kv.indexOf('=');
            props.put(kv.substring(0, eq), unescape(kv.substring(eq + 1)));
        }
        return props;
    }

    /** The runner's unescaping: every escape but {@code %25} first, then {@code %25}. */
    private static String unescape(String s) {
        return s.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%");
    }
}
