package dev.retryaudit.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.cli.CliRunner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference verdicts on the canonical fixtures and on one small spans file per case
 * of the last verdict, through the real command line with every rule enabled. Assertions name only
 * the findings that decide each case, so other rules adding findings cannot break them.
 */
class CanonicalScenariosTest {
    private static final String DIR = "src/test/resources/scenarios/";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theRetryThatWroteTwiceFailsOnAnUnreconciledUnknownAttempt() throws Exception {
        CliRunner.Result r = audit("seed-retry-wrote-twice.jsonl");
        assertThat(r.exit()).isEqualTo(2);
        JsonNode f = only(findings(r, "timeout-replay/unreconciled"));
        assertThat(f.path("severity").asText()).isEqualTo("error");
        assertThat(f.path("operation").asText()).isEqualTo("cart-c-1844");
        assertThat(f.path("attempt").asInt()).isEqualTo(2);
        assertThat(f.path("evidence").path("prior_commit_state").asText()).isEqualTo("unknown");
        assertThat(f.path("message").asText()).contains("cart-c-1844", "unknown");
        assertThat(f.path("location").path("line").asInt()).isEqualTo(2);
        assertThat(audit("seed-retry-wrote-twice.jsonl").out()).isEqualTo(r.out());
    }

    @Test
    void theRetryAfterANotSentAttemptPasses() throws Exception {
        CliRunner.Result r = audit("seed-retry-wrote-twice-pass.jsonl");
        assertThat(r.exit()).isEqualTo(0);
        assertThat(errors(r)).isEmpty();
    }

    @Test
    void theCheckoutDocumentFailsOnTheChargeOnly() throws Exception {
        CliRunner.Result r = audit("operations-checkout.json");
        assertThat(r.exit()).isEqualTo(2);
        JsonNode f = only(findings(r, "timeout-replay/unreconciled"));
        assertThat(f.path("operation").asText()).isEqualTo("cart-c-1844");
        assertThat(f.path("location").path("pointer").asText()).isEqualTo("/operations/0/attempts/1");
        for (JsonNode other : findings(r, null)) {
            String rule = other.path("rule").asText();
            if (rule.startsWith("timeout-replay/") || rule.startsWith("effect-verification/")) {
                assertThat(other.path("operation").asText()).as(rule).isEqualTo("cart-c-1844");
            }
        }
    }

    @ParameterizedTest(name = "{0} is rejected at line {1}")
    @CsvSource({
        "line-lacks-key.jsonl, 2, needs operation_id or idempotency_key",
        "line-lacks-attempt-id.jsonl, 2, missing required field attempt_id",
        "line-invalid-commit-state.jsonl, 1, $.commit_state: expected one of unknown, committed, rejected, not_sent",
    })
    void aLineWithoutKeyAttemptIdOrValidCommitStateIsRejected(String file, int line, String message)
            throws Exception {
        CliRunner.Result r = audit(file);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).startsWith(DIR + file + ":" + line + ":").contains(": error: ", message);
        JsonNode error = JSON.readTree(r.out()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(65);
        assertThat(error.path("line").asInt()).isEqualTo(line);
    }

    @ParameterizedTest(name = "{0} fails with {1} on attempt {2}")
    @CsvSource({
        "line-lacks-commit-state.jsonl, effect-verification/missing-state, 1",
        "sequence-gap.jsonl, trace/attempt-sequence, -",
        "retry-after-committed.jsonl, effect-verification/retry-after-commit, 2",
        "retry-after-rejected-conflict.jsonl, effect-verification/retry-after-reject, 2",
        "retry-empty-reason.jsonl, trace/retry-reason, 2",
    })
    void anUnsafeWriteTraceFails(String file, String rule, String attempt) throws Exception {
        CliRunner.Result r = audit(file);
        assertThat(r.exit()).isEqualTo(2);
        JsonNode f = only(findings(r, rule));
        assertThat(f.path("severity").asText()).isEqualTo("error");
        assertThat(f.path("operation").asText()).isEqualTo("cart-c-1844");
        assertThat(f.path("attempt").isNull() ? "-" : f.path("attempt").asText()).isEqualTo(attempt);
    }

    @ParameterizedTest(name = "{0} passes")
    @CsvSource({"retry-after-reconcile.jsonl", "retry-after-retryable-rejection.jsonl"})
    void aRetryThatTheDecisionTableAllowsPasses(String file) throws Exception {
        CliRunner.Result r = audit(file);
        assertThat(r.exit()).isEqualTo(0);
        assertThat(errors(r)).isEmpty();
    }

    @Test
    void aRepeatedValidationFailureIsLeftToValidationRepeat() throws Exception {
        CliRunner.Result r = audit("retry-after-rejected-validation.jsonl");
        for (JsonNode f : findings(r, null)) {
            assertThat(f.path("rule").asText()).doesNotStartWith("timeout-replay/").doesNotStartWith("effect-verification/");
        }
        assertThat(r.exit()).isEqualTo(2);
        assertThat(findings(r, null)).anySatisfy(f -> assertThat(f.path("rule").asText()).startsWith("validation-repeat/"));
    }

    private static CliRunner.Result audit(String file) {
        return CliRunner.run("audit", "--format", "json", DIR + file);
    }

    /** The findings of one rule, or all of them when {@code rule} is null. */
    private static List<JsonNode> findings(CliRunner.Result r, String rule) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode f : JSON.readTree(r.out()).path("findings")) {
            if (rule == null || f.path("rule").asText().equals(rule)) {
                found.add(f);
            }
        }
        return found;
    }

    private static List<JsonNode> errors(CliRunner.Result r) throws Exception {
        return findings(r, null).stream().filter(f -> f.path("severity").asText().equals("error")).toList();
    }

    private static JsonNode only(List<JsonNode> findings) {
        assertThat(findings).hasSize(1);
        return findings.get(0);
    }
}
