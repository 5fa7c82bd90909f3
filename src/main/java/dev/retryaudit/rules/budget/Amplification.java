package dev.retryaudit.rules.budget;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.ParentRef;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Retries nested inside the attempts of an operation that also retried multiply load at every layer
 * (RFC 9110 §9.2.2: do not retry a failed automatic retry). "Inside" follows the parent chain
 * upwards, through layers that did not retry themselves. A parent may come before or after its
 * child in the input, so the chains are walked at the end; only operations that retried or have a
 * parent are remembered, each as its attempt count and parent.
 */
public final class Amplification implements CrossOperationRule {
    static final RuleInfo INFO = new RuleInfo("budget/amplification", Severity.WARNING,
            "an operation with retries ran inside an attempt of an operation that also retried");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Tally start(RuleContext ctx) {
        return new Chains(ctx);
    }

    /** What the chain walk needs of one operation. */
    private record Link(int attempts, ParentRef parent) {
    }

    /** An operation that retried inside another: where to report it. */
    private record Nested(String id, String tool, String run, Location location) {
    }

    /** The links of every operation that retried or has a parent, and the nested retriers to judge at the end. */
    private static final class Chains implements Tally {
        private final RuleContext ctx;
        private final Map<String, Link> links = new HashMap<>();
        private final List<Nested> nested = new ArrayList<>();

        Chains(RuleContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void add(Operation op) {
            if (op.retries() == 0 && op.parent() == null) {
                return;
            }
            links.put(op.id(), new Link(op.attempts().size(), op.parent()));
            if (op.retries() > 0 && op.parent() != null) {
                nested.add(new Nested(op.id(), op.tool(), op.runId(), op.location()));
            }
        }

        @Override
        public void finish() {
            for (Nested n : nested) {
                judge(n);
            }
        }

        private void judge(Nested n) {
            Link self = links.get(n.id());
            List<String> chain = new ArrayList<>(List.of(n.id()));
            List<Integer> attempts = new ArrayList<>(List.of(self.attempts()));
            long product = self.attempts();
            ParentRef retried = null;
            Set<String> seen = new HashSet<>(chain);
            ParentRef up = self.parent();
            while (up != null && seen.add(up.operation())) {
                Link parent = links.get(up.operation());
                if (parent == null) {
                    break;
                }
                chain.add(up.operation());
                attempts.add(parent.attempts());
                product = product > Long.MAX_VALUE / parent.attempts() ? Long.MAX_VALUE : product * parent.attempts();
                if (retried == null && parent.attempts() > 1) {
                    retried = up;
                }
                up = parent.parent();
            }
            if (retried == null) {
                return;
            }
            ctx.reportAt(n.location(), n.id(), null, n.tool(), n.run(), n.id() + " made " + self.attempts()
                    + " attempts inside attempt " + retried.attempt() + " of " + retried.operation() + ", which made "
                    + links.get(retried.operation()).attempts() + " attempts itself: nested retry layers multiply into "
                    + "up to " + product + " calls",
                    Evidence.of().put("chain", chain)
                            .put("attempts", attempts)
                            .put("product", product));
        }
    }
}
