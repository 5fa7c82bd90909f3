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
    void runAndReadBoundsAreChecked() {
        for (String[] bad : new String[][] {
            {"--max-runs", "0", "must be between 1 and 32"},
            {"--max-runs", "33", "must be between 1 and 32"},
            {"--run-ttl", "5", "must be between 10 and 86400"},
            {"--read-timeout", "0", "must be between 1 and 86400"},
            {"--read-timeout", "86401", "must be between 1 and 86400"}}) {
            CliRunner.Result r = CliRunner.run("mcp", bad[0], bad[1]);
            assertThat(r.exit()).as(bad[0] + " " + bad[1]).isEqualTo(64);
            assertThat(r.out()).as(bad[0] + " " + bad[1]).isEmpty();
            assertThat(r.err()).startsWith("retry-audit: error: invalid value for option '" + bad[0] + "': " + bad[2]
                    + "\n");
        }
    }

    @Test
    void helpShowsTheClientConfiguration() {
        CliRunner.Result r = CliRunner.run("mcp", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("--allow-dir=DIR", "--read-timeout=SECONDS", "audit_trace",
                "\"command\": \"java\"");
    }

    @Test
    void theTopLevelHelpListsTheCommand() {
        assertThat(CliRunner.run("--help").out()).contains("mcp");
    }
}
