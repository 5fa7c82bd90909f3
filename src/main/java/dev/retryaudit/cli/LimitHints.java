package dev.retryaudit.cli;

import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;

/** How the command line raises a limit an input exceeded: its {@code --limit-*} option, or more heap. */
public final class LimitHints {
    /** What to do when the Java heap is too small for the input. */
    static final String MORE_MEMORY = "give Java more heap (java -Xmx4g -jar retry-audit.jar ...), "
            + "lower --limit-bytes, or split the input";

    private LimitHints() {
    }

    /** The hint after an input error's message, for example {@code raise it with --limit-string}. */
    public static String of(Limit limit) {
        return limit == Limit.MEMORY ? MORE_MEMORY : Limits.raiseWith(limit, "--limit-" + limit.id());
    }
}
