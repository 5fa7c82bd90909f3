package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report of more findings than one rendering chunk holds, in every format: each finding once, in
 * input order, and the joins between chunks as within one (the findings are written in chunks on
 * every core).
 */
class ManyFindingsCliTest {
    private static final int OPERATIONS = 9_001;

    @TempDir
    static Path tmp;

    static String input;

    /** Writes of two attempts each, the second sent while the first was in flight: one trace/overlap warning each. */
    @BeforeAll
    static void writeInput() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int op = 0; op < OPERATIONS; op++) {
            String head = String.format(Locale.ROOT, "{\"operation_id\":\"op-%05d\",\"tool\":\"charge_cart\","
                    + "\"method\":\"POST\",\"idempotency_key\":\"key-%05d\"", op, op);
            b.append(head).append(",\"attempt_id\":1,\"started_at\":\"2026-09-07T14:00:00.000Z\",\"duration_ms\":900,"
                    + "\"outcome\":\"error\",\"status\":503,\"commit_state\":\"not_sent\",\"retry_reason\":\"\"}\n");
            b.append(head).append(",\"attempt_id\":2,\"started_at\":\"2026-09-07T14:00:00.")
                    .append(String.format(Locale.ROOT, "%03d", op % 900))
                    .append("Z\",\"duration_ms\":20,\"outcome\":\"success\",\"status\":200,"
                            + "\"commit_state\":\"committed\",\"retry_reason\":\"503 from upstream\"}\n");
        }
        Path file = tmp.resolve("overlaps.jsonl");
        Files.writeString(file, b);
        input = file.toString();
    }

    private static CliRunner.Result audit(String format) {
        CliRunner.Result r = CliRunner.run("audit", "--disable", "budget/retry-ratio", "--format", format, input);
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        return r;
    }

    private static String op(int i) {
        return String.format(Locale.ROOT, "op-%05d", i);
    }

    @Test
    void textAndGithubGiveOneLinePerFindingInInputOrder() {
        List<String> text = audit("text").out().lines().toList();
        List<String> github = audit("github").out().lines().toList();
        for (int i = 0; i < OPERATIONS; i++) {
            assertThat(text.get(i)).startsWith(input + ":" + (2 * i + 2) + ":1: warning: attempt 2 of write " + op(i) + " ")
                    .endsWith("[trace/overlap]");
            assertThat(github.get(i)).startsWith("::warning file=" + input.replace(":", "%3A").replace(",", "%2C") + ",line="
                    + (2 * i + 2) + ",col=1,title=trace/overlap::attempt 2 of write " + op(i) + " ");
        }
        assertThat(text.get(OPERATIONS)).isEmpty();
        assertThat(text.get(OPERATIONS + 1)).isEqualTo("findings by rule:");
        assertThat(github.get(OPERATIONS)).startsWith("retry-audit: 9001 operations");
    }

    @Test
    void jsonListsEveryFindingInOrderJoinedAsOneGeneratorJoinsThem() throws IOException {
        String out = audit("json").out();
        JsonNode findings = new ObjectMapper().readTree(out).get("findings");
        assertThat(findings).hasSize(OPERATIONS);
        for (int i = 0; i < OPERATIONS; i++) {
            assertThat(findings.get(i).get("operation").asText()).isEqualTo(op(i));
        }
        assertThat(out).contains("\"findings\": [\n    {\n      \"rule\": \"trace/overlap\"")
                .endsWith("\n    }\n  ]\n}\n");
        assertThat(count(out, "\n    },\n    {\n      \"rule\"")).isEqualTo(OPERATIONS - 1);
    }

    @Test
    void htmlListsEveryFindingByRuleAndByOperationInOrder() {
        String out = audit("html").out();
        Matcher byOperation = Pattern.compile("<details open id=\"op-(\\d+)\">\n<summary><code>(op-\\d+)</code>").matcher(out);
        int i = 0;
        while (byOperation.find()) {
            assertThat(byOperation.group(1)).isEqualTo(String.valueOf(i + 1));
            assertThat(byOperation.group(2)).isEqualTo(op(i));
            i++;
        }
        assertThat(i).isEqualTo(OPERATIONS);
        Matcher byRule = Pattern.compile("<li><span class=\"sev warning\">warning</span> <span class=\"where mono\">[^<]*:(\\d+):1</span>"
                + " operation <code>(op-\\d+)</code>").matcher(out);
        i = 0;
        while (byRule.find()) {
            assertThat(byRule.group(1)).isEqualTo(String.valueOf(2 * i + 2));
            assertThat(byRule.group(2)).isEqualTo(op(i));
            i++;
        }
        assertThat(i).isEqualTo(OPERATIONS);
        assertThat(out).endsWith("</html>\n");
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int at = s.indexOf(part); at >= 0; at = s.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }
}
