package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GitHub Actions example: docs/ci.md shows it as shipped, and the commands it runs work as it expects. */
class CiExampleTest {
    private static final Path WORKFLOW = Path.of("examples/ci/retry-audit.yml");

    @TempDir
    Path tmp;

    @Test
    void theCiPageShowsTheWorkflowAsShipped() throws IOException {
        assertThat(Files.readString(Path.of("docs/ci.md"))).contains("```yaml\n" + Files.readString(WORKFLOW) + "```\n");
    }

    @Test
    void theWorkflowUploadsSarifAndFailsOnExitCodeTwo() throws IOException {
        String wf = Files.readString(WORKFLOW);
        assertThat(wf).contains("audit --format sarif --output retry-audit.sarif $TRACES",
                "uses: github/codeql-action/upload-sarif@v4", "sarif_file: retry-audit.sarif",
                "security-events: write", "steps.audit.outputs.exit-code == '2'", "audit --format github --fail-on never");
    }

    @Test
    void theWorkflowsCommandsBehaveAsItExpects() throws IOException {
        Path sarif = tmp.resolve("retry-audit.sarif");
        CliRunner.Result findings = CliRunner.run("audit", "--format", "sarif", "--output", sarif.toString(),
                "examples/traces/gaps.jsonl");
        assertThat(findings.exit()).isEqualTo(2);
        assertThat(new ObjectMapper().readTree(sarif.toFile()).get("runs").get(0).get("results")).hasSize(3);

        CliRunner.Result clean = CliRunner.run("audit", "--format", "sarif", "--output", sarif.toString(),
                "examples/checkout-operations.json");
        assertThat(clean.exit()).isZero();

        CliRunner.Result annotate = CliRunner.run("audit", "--format", "github", "--fail-on", "never",
                "examples/traces/gaps.jsonl");
        assertThat(annotate.exit()).isZero();
        assertThat(annotate.out()).startsWith("::error file=examples/traces/gaps.jsonl,line=1,col=1,");
    }
}
