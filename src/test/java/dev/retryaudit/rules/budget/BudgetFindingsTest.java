package dev.retryaudit.rules.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.RuleFixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The messages and evidence of the budget rules, and their thresholds from the policy. */
class BudgetFindingsTest {
    private static List<Finding> run(String rule, String name, Policy policy) throws Exception {
        return RuleFixtures.findings(new RuleFixtures.Case(rule, RuleFixtures.ROOT.resolve(rule).resolve(name)), policy);
    }

    /** The default policy with {@code ratio}, {@code minRetries} and {@code minBackoff}, and a budget of 2 for {@code twice} (null for none). */
    private static Policy with(String twice, double ratio, int minRetries, long minBackoff) {
        Policy.Builder b = Policy.DEFAULTS.toBuilder().retryBudget(ratio, minRetries).minBackoffMs(minBackoff);
        return (twice == null ? b : b.tool(twice, null, 2, null)).build();
    }

    @Test
    void maxAttemptsUsesTheToolsOwnBudget() throws Exception {
        Policy fetchTwice = with("fetch", 0.2, 10, 50);
        List<Finding> found = run("budget/max-attempts", "pass-basic", fetchTwice);
        assertThat(found).hasSize(1);
        assertThat(found.get(0).message()).isEqualTo("fetch-3 made 3 attempts, more than the 2 allowed for tool"
                + " fetch: attempt 3 and later exceed the budget");
        assertThat(found.get(0).evidence()).isEqualTo(Evidence.of().put("attempts", 3).put("max_attempts", 2));
        Policy otherTool = with("charge", 0.2, 10, 50);
        assertThat(run("budget/max-attempts", "pass-basic", otherTool)).isEmpty();
    }

    @Test
    void retryRatioReportsEachRunOnceWithItsCounts() throws Exception {
        List<Finding> found = run("budget/retry-ratio", "fail-basic", Policy.DEFAULTS);
        assertThat(found).extracting(Finding::run).containsExactly("run-a", null, "run-b");
        assertThat(found).extracting(Finding::operation).containsOnlyNulls();
        assertThat(found.get(0).message()).isEqualTo("run run-a made 10 retries for 5 operations (200%), over its"
                + " retry budget of 20%: retries at this rate turn an outage into a retry storm");
        assertThat(found.get(1).message()).startsWith("the operations without a run_id made 10 retries for 1 ");
        assertThat(found.get(2).evidence()).isEqualTo(Evidence.of().put("operations", 5L).put("retries", 10L)
                .put("ratio", 2.0).put("budget_ratio", 0.2).put("min_retries", 10));
        assertThat(found).extracting(Finding::fingerprint).doesNotHaveDuplicates();
    }

    @Test
    void retryRatioFollowsThePolicysBudget() throws Exception {
        assertThat(run("budget/retry-ratio", "pass-basic", with(null, 0.19, 10, 50)))
                .extracting(Finding::run).containsExactly("run-p");
        assertThat(run("budget/retry-ratio", "pass-basic", with(null, 0.2, 2, 50)))
                .extracting(Finding::run).containsExactly("run-q", (String) null);
    }

    @Test
    void deadlineSaysHowLateAndHowManyAttempts() throws Exception {
        Finding f = run("budget/deadline", "fail-basic", Policy.DEFAULTS).get(0);
        assertThat(f.message()).isEqualTo("attempt 3 of plan-1 started 1 ms after its deadline of 1000 ms from the"
                + " first attempt: the caller had already given up (2 attempts started late)");
        assertThat(f.evidence()).isEqualTo(Evidence.of().put("deadline_ms", 1000L)
                .put("first_started_at", "2026-09-07T14:00:00.000Z").put("deadline_at", "2026-09-07T14:00:01.000Z")
                .put("started_at", "2026-09-07T14:00:01.001Z").put("late_ms", 1L).put("late_attempts", 2));
    }

    @Test
    void noBackoffGivesTheGapAndTheFailure() throws Exception {
        Finding f = run("budget/no-backoff", "fail-basic", Policy.DEFAULTS).get(0);
        assertThat(f.message()).isEqualTo("attempt 2 of n-1 started 10 ms after attempt 1 failed with status 503,"
                + " less than the 50 ms minimum backoff: an immediate retry hits a server that is already failing");
        assertThat(f.evidence()).isEqualTo(Evidence.of().put("prior_attempt", 1).put("prior_failure", "status 503")
                .put("prior_response_at", "2026-09-07T14:00:00.100Z").put("started_at", "2026-09-07T14:00:00.110Z")
                .put("gap_ms", 10L).put("min_backoff_ms", 50L));
        assertThat(run("budget/no-backoff", "fail-basic", with(null, 0.2, 10, 0))).isEmpty();
    }

    @Test
    void amplificationMultipliesAlongTheChain() throws Exception {
        List<Finding> found = run("budget/amplification", "fail-basic", Policy.DEFAULTS);
        assertThat(found.get(1).message()).isEqualTo("backend-call made 3 attempts inside attempt 2 of agent-step,"
                + " which made 2 attempts itself: nested retry layers multiply into up to 6 calls");
        assertThat(found.get(1).evidence()).isEqualTo(Evidence.of()
                .put("chain", List.of("backend-call", "middleware", "agent-step"))
                .put("attempts", List.of(3, 1, 2)).put("product", 6L));
    }
}
