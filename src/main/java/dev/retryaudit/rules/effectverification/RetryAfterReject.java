package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Wire;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.shared.RetryRule;
import dev.retryaudit.rules.shared.Requests;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/**
 * A write the server refused, such as a declined charge or a conflict, sent again unchanged. A
 * rejection with a status in {@code retryable_rejections} may be retried; a validation failure is
 * validation-repeat's; a changed request_hash is a corrected request.
 */
public final class RetryAfterReject extends RetryRule {
    public RetryAfterReject() {
        super(new RuleInfo("effect-verification/retry-after-reject", Severity.ERROR,
                "an attempt repeats a write after a rejection that is neither retryable nor a validation failure"));
    }

    @Override
    protected void judge(Operation op, CommitGate.Retry r, RuleContext ctx) {
        Attempt prior = r.prior();
        Attempt next = r.next();
        if (r.row() != CommitGate.REJECTED || !Requests.maybeSame(prior, next)) {
            return;
        }
        String why = prior.grpcStatus() != null ? "gRPC " + prior.grpcStatus()
                : prior.status() != null ? "status " + prior.status()
                : prior.errorClass() != null ? "error_class " + Wire.name(prior.errorClass(), '_') : "no status";
        String same = prior.requestHash() != null && next.requestHash() != null
                ? "the same request_hash" : "no request_hash to show it changed";
        String message = "attempt " + next.attemptId() + " of " + op.id() + " repeats the write that attempt "
                + prior.attemptId() + " had rejected (" + why + ", not a retryable rejection), with " + same;
        Evidence evidence = Evidence.of().put("prior_attempt", prior.attemptId())
                .put("prior_commit_state", "rejected")
                .put("prior_status", prior.status())
                .put("prior_error_class", prior.errorClass() == null ? null : Wire.name(prior.errorClass(), '_'))
                .put("prior_request_hash", prior.requestHash())
                .put("request_hash", next.requestHash());
        if (prior.grpcStatus() != null) {
            evidence.put("prior_grpc_status", prior.grpcStatus().name());
        }
        ctx.report(op, next, message, evidence);
    }
}
