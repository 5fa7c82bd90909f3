package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.Setting;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The help text lists exactly the exit codes of {@link ExitCode}, and --version the build's version. */
class HelpTest {
    @Test
    void helpListsEveryExitCodeAndNoOther() {
        for (String[] args : new String[][] {{"--help"}, {"audit", "--help"}}) {
            CliRunner.Result r = CliRunner.run(args);
            assertThat(r.exit()).isZero();
            String codes = r.out().substring(r.out().indexOf("Exit codes:"));
            Matcher m = Pattern.compile("(?m)^\\s+(\\d+)\\s+(\\S.*)$").matcher(codes);
            StringBuilder listed = new StringBuilder();
            while (m.find()) {
                listed.append(m.group(1)).append(' ');
            }
            StringBuilder expected = new StringBuilder();
            for (ExitCode e : ExitCode.values()) {
                expected.append(e.code()).append(' ');
                assertThat(codes.replaceAll("\\s+", " ")).contains(e.meaning());
            }
            assertThat(listed.toString()).isEqualTo(expected.toString());
        }
    }

    @Test
    void auditHelpListsItsOptions() {
        String help = CliRunner.run("audit", "--help").out();
        assertThat(help).contains("--input-format", "--format", "--output", "--fail-on", "--enable", "--disable",
                "--limit-bytes", "--limit-operations", "--limit-attempts", "--limit-string", "--limit-depth", "--debug",
                "auto, operations, spans");
        // audit offers every row of the settings table, probe all but the input format and limits.
        String probeHelp = CliRunner.run("probe", "--help").out();
        for (Setting s : Setting.values()) {
            assertThat(help).as(s.option()).contains(" " + s.option() + "=" + s.label());
            boolean probe = s != Setting.INPUT_FORMAT && s.limit().isEmpty();
            assertThat(probeHelp.contains(" " + s.option() + "=" + s.label()))
                    .as("probe " + s.option()).isEqualTo(probe);
        }
    }

    @Test
    void versionComesFromTheBuild() {
        CliRunner.Result r = CliRunner.run("--version");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).matches("retry-audit \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\n");
    }
}
