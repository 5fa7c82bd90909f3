package dev.retryaudit.rules.shared;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.LazyText;
import dev.retryaudit.rules.RuleContext;

/**
 * A finding whose message is built when it is read, for a built-in rule that may report on most operations of
 * a large input: the engine's context holds the message's values, any other context gets the text.
 */
public interface LazyReports {
    /** As {@link RuleContext#report(Operation, Attempt, String, Evidence)}, the message built from {@code message} when read. */
    void reportLazily(Operation op, Attempt attempt, LazyText message, Evidence evidence);

    /** Reports through {@code ctx}: lazily when it can hold the message's values, else with the text. */
    static void report(RuleContext ctx, Operation op, Attempt attempt, LazyText message, Evidence evidence) {
        if (ctx instanceof LazyReports lazy) {
            lazy.reportLazily(op, attempt, message, evidence);
        } else {
            ctx.report(op, attempt, message.text(), evidence);
        }
    }
}
