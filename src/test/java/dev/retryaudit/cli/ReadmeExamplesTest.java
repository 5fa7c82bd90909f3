package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.ExitCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's front page shows what the tool prints: its finding is the audit's output, its exit codes are the enum's. */
class ReadmeExamplesTest {
    private static final Pattern COMMAND = Pattern.compile("\\(`java -jar target/retry-audit\\.jar ([^`]+)`\\):\n\n```\n(.*?)```\n",
            Pattern.DOTALL);
    private static final Pattern CODE_ROW = Pattern.compile("(?m)^\\| (\\d+) \\| ");

    private static String readme() throws IOException {
        return Files.readString(Path.of("README.md"));
    }

    @Test
    void theFindingShownIsWhatTheAuditPrints() throws IOException {
        Matcher m = COMMAND.matcher(readme());
        assertThat(m.find()).as("a command and its output in README.md").isTrue();
        String[] args = m.group(1).split(" ");
        CliRunner.Result r = CliRunner.run(args);
        assertThat(r.exit()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(r.out()).isEqualTo(m.group(2));
    }

    @Test
    void theExitCodesAreTheCommandsCodes() throws IOException {
        String readme = readme();
        String table = readme.substring(readme.indexOf("\n## Exit codes\n"), readme.indexOf("\n## Documentation\n"));
        List<Integer> listed = new ArrayList<>();
        Matcher m = CODE_ROW.matcher(table);
        while (m.find()) {
            listed.add(Integer.parseInt(m.group(1)));
        }
        assertThat(listed).isEqualTo(Arrays.stream(ExitCode.values()).map(ExitCode::code).toList());
    }

    @Test
    void theFrontPageStaysAFrontPage() throws IOException {
        assertThat(Files.size(Path.of("README.md"))).as("README.md bytes").isLessThanOrEqualTo(12_000);
    }
}
