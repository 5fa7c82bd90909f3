package dev.retryaudit.rules.shared;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.ReportedOutcome;
import dev.retryaudit.text.Times;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.RuleRegistry;
import dev.retryaudit.rules.engine.RuleSelection;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commit-state decision table on what no fixture format can show yet: formats that cannot carry
 * commit_state or idempotency keys, and a policy whose tool dedupes by key.
 */
class CommitGateTest {
    private static final Set<Field> NO_COMMIT_STATE = EnumSet.complementOf(EnumSet.of(Field.COMMIT_STATE));
    private static final Set<Field> NO_KEYS = EnumSet.complementOf(EnumSet.of(Field.IDEMPOTENCY_KEY));
    private static final Policy DEDUPES = Policy.DEFAULTS.toBuilder().tool("charge", null, null, true).build();

    @Test
    void aTimeoutCountsAsUnknownOnlyWhereTheFormatCannotCarryCommitState() {
        Operation otlp = write("op", "k", Set.copyOf(NO_COMMIT_STATE), List.of(),
                attempt(1, Outcome.TIMEOUT, null, "k"), attempt(2, Outcome.SUCCESS, null, "k"));
        assertThat(CommitGate.rows(otlp, Policy.DEFAULTS).get(0)).isEqualTo(CommitGate.UNRECONCILED);
        assertThat(run(Policy.DEFAULTS, otlp)).containsExactly("timeout-replay/unreconciled op 2");
        assertThat(messages(Policy.DEFAULTS, otlp))
                .containsExactly("attempt 2 of op follows attempt 1 that ended in timeout with no commit_state,"
                        + " with no reconcile read between them");

        Operation spans = write("op", "k", Field.ALL, List.of(),
                attempt(1, Outcome.TIMEOUT, null, "k"), attempt(2, Outcome.SUCCESS, null, "k"));
        assertThat(CommitGate.rows(spans, Policy.DEFAULTS).get(0)).isEqualTo(CommitGate.MISSING);
        assertThat(run(Policy.DEFAULTS, spans))
                .containsExactly("effect-verification/missing-state op 1", "effect-verification/missing-state op 2");
    }

    @Test
    void withoutCommitStateOtherOutcomesAreNoFactAndLaterTimeoutsRepeat() {
        Operation otlp = write("op", "k", Set.copyOf(NO_COMMIT_STATE), List.of(),
                attempt(1, Outcome.ERROR, null, "k"), attempt(2, Outcome.CONNECTION_ERROR, null, "k"),
                attempt(3, Outcome.SUCCESS, null, "k"));
        assertThat(CommitGate.rows(otlp, Policy.DEFAULTS).get(0)).isEqualTo(CommitGate.NO_FACT);
        assertThat(CommitGate.rows(otlp, Policy.DEFAULTS).get(1)).isEqualTo(CommitGate.REPEATED_UNKNOWN);
        assertThat(run(Policy.DEFAULTS, otlp)).containsExactly("timeout-replay/repeated-unknown op 3");
    }

    @Test
    void unverifiedSuccessNeedsAFormatThatCarriesCommitState() {
        Operation otlp = Operation.builder().id("op").tool("charge").effect(Effect.WRITE).method("POST")
                .idempotencyKey("k").reportedOutcome(ReportedOutcome.SUCCESS)
                .attempts(List.of(attempt(1, Outcome.SUCCESS, null, "k"))).at(at(1))
                .carried(Set.copyOf(NO_COMMIT_STATE)).build();
        assertThat(run(Policy.DEFAULTS, otlp)).isEmpty();
    }

    @Test
    void keylessNeedsAFormatThatCarriesKeys() {
        Operation har = write("op", null, Set.copyOf(NO_KEYS), List.of(),
                attempt(1, Outcome.TIMEOUT, CommitState.UNKNOWN, null), attempt(2, Outcome.SUCCESS, CommitState.COMMITTED, null));
        assertThat(CommitGate.rows(har, Policy.DEFAULTS).get(0)).isEqualTo(CommitGate.UNRECONCILED);
        Operation spans = write("op", null, Field.ALL, List.of(),
                attempt(1, Outcome.TIMEOUT, CommitState.UNKNOWN, null), attempt(2, Outcome.SUCCESS, CommitState.COMMITTED, null));
        assertThat(run(Policy.DEFAULTS, spans)).containsExactly("timeout-replay/keyless op 2");
    }

    @Test
    void aToolThatDedupesByKeyClearsAttemptOneOnlyUnderTheSameKey() {
        Operation sameKey = write("op", "k", Field.ALL, List.of(),
                attempt(1, Outcome.TIMEOUT, CommitState.UNKNOWN, "k"), attempt(2, Outcome.SUCCESS, CommitState.COMMITTED, "k"));
        assertThat(CommitGate.rows(sameKey, DEDUPES).get(0)).isEqualTo(CommitGate.DEDUPLICATED);
        assertThat(run(DEDUPES, sameKey)).isEmpty();
        assertThat(run(Policy.DEFAULTS, sameKey)).containsExactly("timeout-replay/unreconciled op 2");

        Operation newKey = write("op", null, Field.ALL, List.of(),
                attempt(1, Outcome.TIMEOUT, CommitState.UNKNOWN, "k"), attempt(2, Outcome.SUCCESS, CommitState.COMMITTED, "k2"));
        assertThat(run(DEDUPES, newKey)).containsExactly("timeout-replay/unreconciled op 2");

        Operation third = write("op", "k", Field.ALL, List.of(),
                attempt(1, Outcome.TIMEOUT, CommitState.UNKNOWN, "k"), attempt(2, Outcome.TIMEOUT, CommitState.UNKNOWN, "k"),
                attempt(3, Outcome.SUCCESS, CommitState.COMMITTED, "k"));
        assertThat(run(DEDUPES, third)).containsExactly("timeout-replay/repeated-unknown op 3");
    }

    @Test
    void aCommitFactAnywhereBeforeARetryOutranksThePreviousAttemptsState() {
        Check committed = new Check(1, null, "ledger_read", CheckResult.COMMITTED, 1L, at(9));
        Operation op = write("op", "k", Field.ALL, List.of(committed),
                attempt(1, Outcome.TIMEOUT, CommitState.UNKNOWN, "k"), attempt(2, Outcome.ERROR, CommitState.REJECTED, "k"),
                attempt(3, Outcome.SUCCESS, CommitState.NOT_SENT, "k"));
        assertThat(CommitGate.rows(op, Policy.DEFAULTS).get(0)).isEqualTo(CommitGate.COMMITTED);
        assertThat(CommitGate.rows(op, Policy.DEFAULTS).get(1)).isEqualTo(CommitGate.COMMITTED);
        assertThat(run(Policy.DEFAULTS, op)).containsExactly(
                "effect-verification/retry-after-commit op 2", "effect-verification/retry-after-commit op 3");
    }

    @Test
    void grpcStatusesOfUnknownOutcomeAreUnclearWhereTheFormatCannotCarryCommitState() {
        for (GrpcStatus unclear : List.of(GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.CANCELLED, GrpcStatus.UNKNOWN,
                GrpcStatus.INTERNAL, GrpcStatus.DATA_LOSS)) {
            Operation otlp = write("op", "k", Set.copyOf(NO_COMMIT_STATE), List.of(),
                    grpc(1, unclear, null), grpc(2, GrpcStatus.OK, null));
            assertThat(CommitGate.rows(otlp, Policy.DEFAULTS)).as(unclear.name()).containsExactly(CommitGate.UNRECONCILED);
        }
        for (GrpcStatus clear : List.of(GrpcStatus.UNAVAILABLE, GrpcStatus.RESOURCE_EXHAUSTED, GrpcStatus.ABORTED,
                GrpcStatus.UNAUTHENTICATED)) {
            Operation otlp = write("op", "k", Set.copyOf(NO_COMMIT_STATE), List.of(),
                    grpc(1, clear, null), grpc(2, GrpcStatus.OK, null));
            assertThat(CommitGate.rows(otlp, Policy.DEFAULTS)).as(clear.name()).containsExactly(CommitGate.NO_FACT);
        }
    }

    @Test
    void grpcRejectionsAreValidationRetryableOrRejectedByTheirStatus() {
        Operation invalid = write("op", "k", Field.ALL, List.of(),
                grpc(1, GrpcStatus.INVALID_ARGUMENT, CommitState.REJECTED), grpc(2, GrpcStatus.OK, CommitState.COMMITTED));
        assertThat(CommitGate.rows(invalid, Policy.DEFAULTS)).containsExactly(CommitGate.VALIDATION);
        Operation unavailable = write("op", "k", Field.ALL, List.of(),
                grpc(1, GrpcStatus.UNAVAILABLE, CommitState.REJECTED), grpc(2, GrpcStatus.OK, CommitState.COMMITTED));
        assertThat(CommitGate.rows(unavailable, Policy.DEFAULTS)).containsExactly(CommitGate.RETRYABLE_REJECTION);
        Operation unauthenticated = write("op", "k", Field.ALL, List.of(),
                grpc(1, GrpcStatus.UNAUTHENTICATED, CommitState.REJECTED), grpc(2, GrpcStatus.OK, CommitState.COMMITTED));
        assertThat(CommitGate.rows(unauthenticated, Policy.DEFAULTS)).containsExactly(CommitGate.REJECTED);
        // an error class of validation does not make a gRPC failure non-retryable: the gRPC list decides
        Policy none = Policy.DEFAULTS.toBuilder().nonRetryableStatuses(Set.of()).retryableRejections(Set.of())
                .grpc(List.of(), List.of(), Set.of()).build();
        assertThat(CommitGate.rows(invalid, none)).containsExactly(CommitGate.REJECTED);
    }

    private static Attempt grpc(int id, GrpcStatus status, CommitState state) {
        return Attempt.builder().attemptId(id).spanId("s" + id).idempotencyKey("k").outcome(status.outcome())
                .errorClass(status.errorClass()).commitState(state).retryReason(id > 1 ? "retry" : null).at(at(id))
                .grpcStatus(status).build();
    }

    private static List<String> run(Policy policy, Operation op) {
        return findings(policy, op).stream().map(f -> f.rule() + " " + f.operation() + " " + f.attempt()).toList();
    }

    private static List<String> messages(Policy policy, Operation op) {
        return findings(policy, op).stream().map(Finding::message).toList();
    }

    /** Every rule of the two commit-state families over one operation. */
    private static List<Finding> findings(Policy policy, Operation op) {
        List<String> others = new ArrayList<>(RuleRegistry.families());
        Engine engine = new Engine(policy,
                RuleSelection.of(policy, List.of("timeout-replay", "effect-verification"), others));
        engine.accept(op);
        return engine.finish();
    }

    private static Operation write(String id, String key, Set<Field> carried, List<Check> checks, Attempt... attempts) {
        return Operation.builder().id(id).tool("charge").effect(Effect.WRITE).method("POST").idempotencyKey(key)
                .attempts(List.of(attempts)).checks(checks).at(at(1)).carried(carried).build();
    }

    private static Attempt attempt(int id, Outcome outcome, CommitState state, String key) {
        return Attempt.builder().attemptId(id).idempotencyKey(key).outcome(outcome).commitState(state)
                .retryReason(id == 1 ? "" : "retry").at(at(id + 1)).build();
    }

    private static Location at(int line) {
        return new Location("test", 0, line, 1, null);
    }
}
