package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What --output and standard output accept and refuse, through the command line. */
class OutputTargetTest {
    private static final String SPANS = "examples/checkout-spans.jsonl";

    @TempDir
    Path dir;

    @Test
    void anEmptyNameADirectoryAndTheRootAreUsageErrors() {
        for (String target : new String[] {"", "/", ".", dir.toString()}) {
            CliRunner.Result r = CliRunner.run("audit", "--output", target, SPANS);
            assertThat(r.exit()).as("'" + target + "'").isEqualTo(64);
            assertThat(r.err()).as(target).contains("'--output'").doesNotContain("Exception");
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void theOutputCannotBeAnInputThePolicyOrTheBaseline() throws IOException {
        Path in = Files.copy(Path.of(SPANS), dir.resolve("in.jsonl"));
        byte[] before = Files.readAllBytes(in);
        CliRunner.Result same = CliRunner.run("audit", "--output", dir + "/./in.jsonl", in.toString());
        assertThat(same.exit()).isEqualTo(64);
        assertThat(same.err()).startsWith("retry-audit: error: invalid value for option '--output': " + dir
                + "/./in.jsonl is the same file as the input " + in + ", which it would overwrite");
        Path baseline = dir.resolve("baseline.json");
        assertThat(CliRunner.run("audit", "--output", baseline.toString(), in.toString()).exit()).isEqualTo(2);
        byte[] accepted = Files.readAllBytes(baseline);
        CliRunner.Result overBaseline = CliRunner.run("audit", "--baseline", baseline.toString(), "--output",
                baseline.toString(), in.toString());
        assertThat(overBaseline.exit()).isEqualTo(64);
        assertThat(Files.readAllBytes(baseline)).isEqualTo(accepted);
        Path policy = Files.writeString(dir.resolve("policy.json"), "{\"version\": 1}");
        CliRunner.Result overPolicy = CliRunner.run("audit", "--policy", policy.toString(), "--output",
                policy.toString(), in.toString());
        assertThat(overPolicy.exit()).isEqualTo(64);
        assertThat(Files.readString(policy)).isEqualTo("{\"version\": 1}");
        assertThat(Files.readAllBytes(in)).isEqualTo(before);
    }

    @Test
    void probeTraceOutAndOutputCannotBeThePolicyOrEachOther() throws IOException {
        Path policy = Files.writeString(dir.resolve("policy.json"), "{\"version\": 1}");
        CliRunner.Result r = CliRunner.run("probe", "--policy", policy.toString(), "--trace-out", policy.toString(),
                "--timeout", "1", "--", "true");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("'--trace-out'", "is the same file as the input");
        Path trace = Files.writeString(dir.resolve("trace.json"), "old");
        r = CliRunner.run("probe", "--trace-out", trace.toString(), "--output", trace.toString(), "--timeout", "1",
                "--", "true");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(Files.readString(trace)).isEqualTo("old");
    }

    @Test
    void aDepthLimitBeyondWhatCanBeReadIsAUsageError() {
        CliRunner.Result r = CliRunner.run("audit", "--limit-depth", "1001", SPANS);
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).startsWith("retry-audit: error: invalid value for option '--limit-depth': must be at most 1000");
        assertThat(CliRunner.run("audit", "--limit-depth", "1000", SPANS).exit()).isEqualTo(2);
    }

    /** A stdout whose every write fails with {@code why}: a full disk, a reader gone away. */
    private static final class Failing extends OutputStream {
        private final String why;

        Failing(String why) {
            this.why = why;
        }

        @Override
        public void write(int b) throws IOException {
            throw new IOException(why);
        }
    }

    @Test
    void everyCommandExits74WhenStandardOutputFails() {
        String[][] commands = {{"--version"}, {"--help"}, {"schema"}, {"schema", "report"}, {"rules"},
            {"explain", "retry-after/early"}, {"audit", SPANS}, {"audit", "--format", "text", SPANS}};
        for (String[] args : commands) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = Main.run(args, new ByteArrayInputStream(new byte[0]), new Failing("No space left on device"), err);
            String message = err.toString(StandardCharsets.UTF_8);
            assertThat(exit).as(String.join(" ", args) + ": " + message).isEqualTo(74);
            assertThat(message.lines()).as(String.join(" ", args)).hasSize(1);
            assertThat(message).contains("standard output: No space left on device");
        }
    }

    @Test
    void aClosedPipeIsNotAFailure() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(Main.run(new String[] {"schema", "report"}, new ByteArrayInputStream(new byte[0]), new Failing("Broken pipe"),
                err)).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
