package dev.retryaudit.rules.validationrepeat;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.NonRetryableFailure;
import dev.retryaudit.rules.shared.PairRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * A retry after a validation failure where a request_hash is missing: nothing shows the request was
 * corrected. An error for writes, where an uncorrected repeat may land a bad side effect; silent
 * where the format cannot carry request_hash at all.
 */
public final class Unverifiable extends PairRule {
    public Unverifiable() {
        super(new RuleInfo("validation-repeat/unverifiable", Severity.WARNING,
                "attempt n failed non-retryably and request_hash is missing on attempt n or n+1, so no correction shows"));
    }

    @Override
    protected boolean concerns(Operation op, RuleContext ctx) {
        return op.carries(Field.REQUEST_HASH);
    }

    @Override
    protected void judge(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        boolean write = ctx.isWrite(op);
        if (!NonRetryableFailure.is(prev, ctx.policy()) || prev.requestHash() != null && next.requestHash() != null) {
            return;
        }
        List<Integer> missing = new ArrayList<>();
        for (Attempt a : List.of(prev, next)) {
            if (a.requestHash() == null) {
                missing.add(a.attemptId());
            }
        }
        String failure = NonRetryableFailure.describe(prev, ctx.policy());
        String where = missing.size() == 2 ? "either attempt" : "attempt " + missing.get(0);
        ctx.report(write ? Severity.ERROR : null, op, next, "attempt " + next.attemptId() + " of "
                + (write ? "write " : "") + op.id() + " retries attempt " + prev.attemptId() + ", which failed with "
                + failure + ", and " + where + " has no request_hash: nothing shows the request was corrected",
                Evidence.of().put("prior_attempt", prev.attemptId())
                        .put("prior_failure", failure)
                        .put("request_hash_missing_on", missing)
                        .put("write", write));
    }
}
