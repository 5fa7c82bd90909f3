package dev.retryaudit.rules.budget;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.values.ParentRef;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Retries nested inside the attempts of an operation that also retried multiply load at every layer
 * (RFC 9110 §9.2.2: do not retry a failed automatic retry). "Inside" follows the parent chain
 * upwards, through layers that did not retry themselves. A parent may come before or after its
 * child in the input, so the chains are walked at the end, over the parent links of every part of
 * the input; only operations that retried or have a parent are remembered, each as its attempt
 * count and parent.
 */
public final class Amplification extends CrossOperationRule<String, Amplification.Chains> {
    /** The one key: chains cross runs and files, so every operation adds to one aggregate. */
    private static final List<String> ALL = List.of("");

    public Amplification() {
        super(new RuleInfo("budget/amplification", Severity.WARNING,
                "an operation with retries ran inside an attempt of an operation that also retried"));
    }

    /** What the chain walk needs of one operation: its attempt count, its parent, and where it stands. */
    public record Link(int attempts, ParentRef parent, Location location) implements Serializable {
    }

    /** An operation that retried inside another: where to report it. */
    public record Nested(String id, String tool, String run, Location location) implements Serializable {
    }

    /**
     * The parent links of every operation that retried or has a parent, and the nested retriers to
     * judge at the end. Of two operations with one id, the later in input order holds the link.
     */
    public static final class Chains implements Serializable {
        private static final long serialVersionUID = 1L;

        private final Map<String, Link> links = new HashMap<>();
        private final List<Nested> nested = new ArrayList<>();

        /** The parent links by operation id, for a caller that resolves chains itself. */
        public Map<String, Link> links() {
            return Collections.unmodifiableMap(links);
        }

        private void link(String id, Link link) {
            links.merge(id, link, (a, b) -> Location.ORDER.compare(b.location(), a.location()) >= 0 ? b : a);
        }
    }

    @Override
    public Collection<String> keys(Operation op, Policy policy) {
        return op.retries() == 0 && op.parentOperation() == null ? Collections.emptyList() : ALL;
    }

    @Override
    public Chains zero() {
        return new Chains();
    }

    @Override
    public Chains add(Chains chains, String key, Operation op, Policy policy) {
        ParentRef parent = op.parentOperation() == null ? null : new ParentRef(op.parentOperation(), op.parentAttempt());
        chains.link(op.id(), new Link(op.attempts().size(), parent, op.location()));
        if (op.retries() > 0 && op.parentOperation() != null) {
            chains.nested.add(new Nested(op.id(), op.tool(), op.runId(), op.location()));
        }
        return chains;
    }

    @Override
    public Chains merge(Chains left, Chains right) {
        right.links.forEach(left::link);
        left.nested.addAll(right.nested);
        return left;
    }

    @Override
    public void finish(String key, Chains chains, RuleContext ctx) {
        for (Nested n : chains.nested) {
            judge(n, chains.links, ctx);
        }
    }

    private static void judge(Nested n, Map<String, Link> links, RuleContext ctx) {
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
        ctx.at(n.location()).operation(n.id(), n.tool(), n.run()).report(n.id() + " made " + self.attempts()
                + " attempts inside attempt " + retried.attempt() + " of " + retried.operation() + ", which made "
                + links.get(retried.operation()).attempts() + " attempts itself: nested retry layers multiply into "
                + "up to " + product + " calls",
                Evidence.of().put("chain", chain)
                        .put("attempts", attempts)
                        .put("product", product));
    }
}
