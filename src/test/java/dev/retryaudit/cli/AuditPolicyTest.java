package dev.retryaudit.cli;

import dev.retryaudit.rules.engine.RuleRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code audit --policy FILE}: the policy changes findings and severities, and a bad or missing file stops the audit. */
class AuditPolicyTest {
    private static final String OVERLAP = """
            {"operation_id":"pay-1","tool":"charge","method":"POST","attempt_id":1,"started_at":"2026-09-07T14:02:03.000Z","duration_ms":8000,"outcome":"timeout"}
            {"operation_id":"pay-1","tool":"charge","method":"POST","attempt_id":2,"started_at":"2026-09-07T14:02:05.000Z","ended_at":"2026-09-07T14:02:05.400Z","retry_reason":"slow"}
            """;

    @TempDir
    Path dir;

    private String input;

    @BeforeEach
    void writeInput() throws IOException {
        input = write("spans.jsonl", OVERLAP);
    }

    /** {@code audit} with every family but trace off, so that only the trace rules judge the input. */
    private static CliRunner.Result audit(String... args) {
        List<String> all = new ArrayList<>(List.of("audit"));
        RuleRegistry.families().stream().filter(f -> !f.equals("trace")).forEach(f -> all.addAll(List.of("--disable", f)));
        all.addAll(List.of(args));
        return CliRunner.run(all.toArray(String[]::new));
    }

    private String write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p.toString();
    }

    @Test
    void withoutAPolicyTheDefaultsApply() {
        CliRunner.Result r = audit(input);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("\"rule\": \"trace/overlap\"", "\"severity\": \"warning\"");
    }

    @Test
    void aSeverityOverrideShowsInTheJsonReportAndTheExitCode() throws IOException {
        String policy = write("policy.json", "{\"rules\": {\"trace/overlap\": {\"severity\": \"error\"}}}");
        CliRunner.Result r = audit("--policy", policy, input);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).contains("\"rule\": \"trace/overlap\"", "\"severity\": \"error\"",
                "\"error\": 1,");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void aDisabledRuleFindsNothing() throws IOException {
        String policy = write("policy.json", "{\"rules\": {\"trace/overlap\": {\"enabled\": false}}}");
        CliRunner.Result r = audit("--fail-on", "note", "--policy", policy, input);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).doesNotContain("trace/overlap").contains("\"passed\": true");
    }

    @Test
    void enableOnTheCommandLineBeatsThePolicy() throws IOException {
        String policy = write("policy.json", "{\"rules\": {\"trace/overlap\": {\"enabled\": false}}}");
        CliRunner.Result r = audit("--policy", policy, "--enable", "trace/overlap", input);
        assertThat(r.out()).contains("\"rule\": \"trace/overlap\"");
    }

    @Test
    void aToolEffectFromThePolicyAppliesToItsOperations() throws IOException {
        String policy = write("policy.json", "{\"tools\": {\"charge\": {\"effect\": \"read\"}}}");
        CliRunner.Result r = audit("--fail-on", "note", "--policy", policy, input);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).doesNotContain("trace/overlap");
    }

    @Test
    void aRejectedPolicyExits65WithItsLocation() throws IOException {
        String policy = write("policy.json", "{\n  \"max_attempt\": 3\n}\n");
        CliRunner.Result r = audit("--policy", policy, input);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(policy + ":2:3: error: $.max_attempt: unknown field (did you mean max_attempts?)\n");
        assertThat(r.out()).contains("\"code\": 65", "\"path\": \"$.max_attempt\"", "\"line\": 2");
    }

    @Test
    void anUnknownRuleIdInThePolicyExits65WithTheClosestIds() throws IOException {
        String policy = write("policy.json", "{\"rules\": {\"trace/overlapp\": {\"severity\": \"error\"}}}");
        CliRunner.Result r = audit("--policy", policy, input);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(policy + ":1:12: error: $.rules['trace/overlapp']: unknown rule id"
                + " (did you mean trace/overlap?)\n");
        assertThat(r.out()).contains("\"code\": 65");
    }

    @Test
    void aProbeVerdictInThePolicySaysOnlyTheProbeRunsIt() throws IOException {
        String policy = write("policy.json", "{\"rules\": {\"probe/not-tested\": {\"enabled\": false}}}");
        String why = ":1:12: error: $.rules['probe/not-tested']: probe/not-tested is a verdict of 'retry-audit probe', "
                + "not a rule over traces: a policy cannot configure it (no audit runs it, and a probe run always "
                + "reports it)\n";
        CliRunner.Result r = audit("--policy", policy, input);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(policy + why).doesNotContain("unknown rule id");
        CliRunner.Result probe = CliRunner.run("probe", "--policy", policy, "--", "true");
        assertThat(probe.exit()).isEqualTo(65);
        assertThat(probe.err()).isEqualTo(policy + why);
        String followed = write("followed.json", "{\"rules\": {\"probe/not-followed\": {\"severity\": \"note\"}}}");
        assertThat(audit("--policy", followed, input).err()).contains("probe/not-followed is a verdict of 'retry-audit probe'");
    }

    @Test
    void aMissingPolicyFileExits66() {
        String missing = dir.resolve("nope.json").toString();
        CliRunner.Result r = audit("--policy", missing, input);
        assertThat(r.exit()).isEqualTo(66);
        assertThat(r.err()).isEqualTo(missing + ": error: no such file\n");
        assertThat(r.out()).contains("\"code\": 66");
    }

    @Test
    void aDirectoryAsPolicyExits66() {
        CliRunner.Result r = audit("--policy", dir.toString(), input);
        assertThat(r.exit()).isEqualTo(66);
        assertThat(r.err()).isEqualTo(dir + ": error: is a directory, not a file\n");
    }

    @Test
    void thePolicyIsReadBeforeTheInput() throws IOException {
        String policy = write("policy.json", "{\"max_attempts\": 0}");
        CliRunner.Result r = audit("--policy", policy, dir.resolve("absent.jsonl").toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).contains("$.max_attempts: number out of range");
    }

    @Test
    void theHelpListsTheOption() {
        assertThat(audit("--help").out()).contains("--policy=FILE");
    }
}
