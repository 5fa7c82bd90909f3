package dev.retryaudit.rules.validationrepeat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Times;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleFixtures;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The messages and evidence of the validation-repeat rules, and their silence where a format has no request_hash. */
class ValidationRepeatFindingsTest {
    private static List<Finding> run(String rule, String name) throws Exception {
        return RuleFixtures.findings(new RuleFixtures.Case(rule,
                RuleFixtures.ROOT.resolve(rule).resolve(name)), Policy.DEFAULTS);
    }

    @Test
    void identicalNamesTheFailureAndTheHash() throws Exception {
        Finding f = run("validation-repeat/identical", "fail-basic").get(0);
        assertThat(f.message()).isEqualTo("attempt 2 of order-5 sends the request of attempt 1 unchanged"
                + " (request_hash h-1) after it failed with status 422: the same input fails the same way");
        assertThat(f.evidence()).isEqualTo(Evidence.of().put("prior_attempt", 1).put("prior_failure", "status 422")
                .put("request_hash", "h-1"));
        assertThat(run("validation-repeat/identical", "fail-basic").get(1).evidence().asMap())
                .containsEntry("prior_failure", "error_class validation");
    }

    @Test
    void unverifiableSaysWhereTheHashIsMissing() throws Exception {
        List<Finding> found = run("validation-repeat/unverifiable", "fail-basic");
        assertThat(found.get(0).message()).isEqualTo("attempt 2 of write refund-1 retries attempt 1, which failed"
                + " with status 400, and attempt 2 has no request_hash: nothing shows the request was corrected");
        assertThat(found.get(1).evidence()).isEqualTo(Evidence.of().put("prior_attempt", 2)
                .put("prior_failure", "status 400").put("request_hash_missing_on", List.of(2, 3)).put("write", true));
        assertThat(found.get(1).message()).contains("and either attempt has no request_hash");
        assertThat(found.get(2).message()).startsWith("attempt 2 of search-2 retries attempt 1, which failed with"
                + " error_class validation, and attempt 1 has no request_hash");
    }

    @Test
    void loopCountsTheWholeStreak() throws Exception {
        Finding f = run("validation-repeat/loop", "fail-basic").get(0);
        assertThat(f.message()).isEqualTo("attempt 3 of agent-call-3 is failure 3 of a loop of 4 non-retryable"
                + " failures in a row (attempts 1 to 4, with status 422, status 400, error_class validation):"
                + " the caller keeps sending requests the server refuses");
        assertThat(f.evidence()).isEqualTo(Evidence.of().put("first_attempt", 1).put("last_attempt", 4)
                .put("failures", 4).put("kinds", List.of("status 422", "status 400", "error_class validation"))
                .put("validation_loop", 3));
    }

    @Test
    void unverifiableIsSilentWhereTheFormatCannotCarryAHash() {
        List<String> reported = new ArrayList<>();
        RuleContext ctx = new RuleContext() {
            @Override
            public Policy policy() {
                return Policy.DEFAULTS;
            }

            @Override
            public void report(Severity severity, Operation op, Attempt attempt, String message, Evidence evidence) {
                reported.add(message);
            }

            @Override
            public FindingBuilder at(Location location) {
                throw new AssertionError("the rule reports about attempts, not at a location of its own");
            }
        };
        EnumSet<Field> withoutHash = EnumSet.allOf(Field.class);
        withoutHash.remove(Field.REQUEST_HASH);
        new Unverifiable().check(operation(withoutHash), ctx);
        assertThat(reported).isEmpty();
        new Unverifiable().check(operation(EnumSet.allOf(Field.class)), ctx);
        assertThat(reported).hasSize(1);
    }

    private static Operation operation(EnumSet<Field> carried) {
        Location at = new Location("x", 0, 1, 1, null);
        List<Attempt> attempts = List.of(attempt(1, at), attempt(2, at));
        return Operation.builder().id("op").tool("t").method("GET").attempts(attempts).at(at).carried(carried).build();
    }

    private static Attempt attempt(int id, Location at) {
        return Attempt.builder().attemptId(id).outcome(Outcome.ERROR).status(422).at(at).build();
    }
}
