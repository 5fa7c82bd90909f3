package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/** Other JVM tools find the command line as a ToolProvider and get its output and exit codes. */
class RetryAuditToolProviderTest {
    @Test
    void runsTheCommandLineInProcess() {
        ToolProvider tool = ToolProvider.findFirst("retry-audit").orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = tool.run(new PrintWriter(out), new PrintWriter(err), "audit", "--format", "text", "--color", "never",
                "examples/traces/retry-wrote-twice.jsonl");
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).contains("[timeout-replay/unreconciled]", "failed (--fail-on error)");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aUsageErrorGoesToErrWithItsExitCode() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new RetryAuditToolProvider().run(new PrintWriter(out), new PrintWriter(err), "audit", "--format", "x");
        assertThat(code).isEqualTo(64);
        assertThat(err.toString()).contains("--format");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void multiByteCharactersSplitAcrossWritesSurvive() {
        StringWriter out = new StringWriter();
        int code = new RetryAuditToolProvider().run(new PrintWriter(out), new PrintWriter(new StringWriter()),
                "explain", "retry-after/early");
        assertThat(code).isZero();
        assertThat(out.toString()).doesNotContain("\uFFFD").contains("Retry-After");
    }
}
