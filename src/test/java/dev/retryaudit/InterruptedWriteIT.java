package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** A write stopped by SIGTERM or SIGINT leaves neither a temporary file nor a half report behind. */
class InterruptedWriteIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalMidWriteRemovesTheTemporaryFile(String signal) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = Path.of("target/classes").toAbsolutePath() + ":" + Path.of("target/test-classes").toAbsolutePath();
        Process p = new ProcessBuilder(java, "-cp", cp, "dev.retryaudit.cli.SlowWrite",
                dir.resolve("report.json").toString()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("writing");
        assertThat(names()).singleElement().asString().startsWith(".retry-audit-").endsWith(".tmp");
        boolean ignored = signal.equals("INT") && ignoresSigint(p.pid());
        if (ignored) {
            p.destroyForcibly().waitFor();
        }
        assumeFalse(ignored, "SIGINT is ignored in this process tree (a background job), so it cannot stop the writer");
        Process kill = new ProcessBuilder("sh", "-c", "kill -" + signal + " " + p.pid()).start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(names()).isEmpty();
    }

    /** Whether the process inherited an ignored SIGINT, as jobs started in the background by a script do. */
    private static boolean ignoresSigint(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 0x2) != 0;
            }
        }
        return false;
    }

    private List<String> names() throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).toList();
        }
    }
}
