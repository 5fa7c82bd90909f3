package dev.retryaudit.rules.retryafter;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.PairRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.grpc.RetryPushback;

/**
 * A gRPC server that answers with a negative or non-integer {@code grpc-retry-pushback-ms} tells the
 * client not to retry (gRFC A6): a client that sends the call again anyway adds load the server
 * refused, typically while it sheds load or is draining.
 */
public final class DoNotRetry extends PairRule {
    public DoNotRetry() {
        super(new RuleInfo("retry-after/do-not-retry", Severity.ERROR,
                "attempt n carried a grpc-retry-pushback-ms that says not to retry, and attempt n+1 exists"));
    }

    @Override
    protected void judge(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        if (prev.retryPushback() == null || RetryPushback.delayMs(prev.retryPushback()) != RetryPushback.STOP) {
            return;
        }
        String why = RetryPushback.whyStop(prev.retryPushback());
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " was sent although attempt "
                + prev.attemptId() + " got " + why + " (grpc-retry-pushback-ms), which tells the client not to retry",
                Evidence.of().put("retry_pushback_ms", prev.retryPushback())
                        .put("retry_pushback_attempt", prev.attemptId())
                        .put("problem", why));
    }
}
