package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code retry-audit mcp} refuses bad options before it serves; serving is tested over stdio by McpServerIT. */
class McpCommandTest {
    @Test
    void aMissingAllowedDirectoryIsAUsageError() {
        CliRunner.Result r = CliRunner.run("mcp", "--allow-dir", "no/such/dir");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("retry-audit: error: invalid value for option '--allow-dir': no/such/dir is not a "
                + "directory\n");
    }

    @Test
    void runBoundsAreChecked() {
        assertThat(CliRunner.run("mcp", "--max-runs", "0").err())
                .startsWith("retry-audit: error: invalid value for option '--max-runs': must be between 1 and 32\n");
        assertThat(CliRunner.run("mcp", "--run-ttl", "5").err())
                .startsWith("retry-audit: error: invalid value for option '--run-ttl': must be between 10 and 86400\n");
    }

    @Test
    void helpShowsTheClientConfiguration() {
        CliRunner.Result r = CliRunner.run("mcp", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("--allow-dir=DIR", "audit_trace", "\"command\": \"java\"");
    }

    @Test
    void theTopLevelHelpListsTheCommand() {
        assertThat(CliRunner.run("--help").out()).contains("mcp");
    }
}
