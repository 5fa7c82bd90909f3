package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.shared.Requests;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One idempotency key sent with different request contents, within or across operations: the
 * server will reject the second request or silently return the first one's result. Aggregates per
 * key (the first use in input order, and each operation's first attempt per request_hash it sent
 * with the key); each operation is reported once per key and differing hash, at its first attempt
 * that sent it. Attempts without a request_hash are skipped.
 */
public final class KeyReused extends CrossOperationRule<String, KeyReused.Uses> {
    /** First in input order; on one location, by operation and attempt. */
    private static final Comparator<Use> FIRST = Comparator.comparing(Use::location, Location.ORDER)
            .thenComparing(Use::operation).thenComparingInt(Use::attempt);

    public KeyReused() {
        super(new RuleInfo("effect-verification/key-reused", Severity.ERROR,
                "one idempotency key is used with different request_hash values (within or across operations)"));
    }

    /** One attempt that sent the key with a request_hash. */
    public record Use(String hash, String operation, int attempt, String tool, String run, String groupedBy,
            Location location) implements Serializable {
    }

    /** The uses of one key: its first use, and per operation its first attempt for each hash, in attempt order. */
    public static final class Uses implements Serializable {
        private static final long serialVersionUID = 1L;

        private Use first;
        private final List<List<Use>> operations = new ArrayList<>();

        void add(List<Use> ofOneOperation) {
            operations.add(ofOneOperation);
            for (Use u : ofOneOperation) {
                first = first == null || FIRST.compare(u, first) < 0 ? u : first;
            }
        }
    }

    @Override
    public Collection<String> keys(Operation op, Policy policy) {
        if (!policy.isWrite(op)) {
            return Collections.emptyList();
        }
        String only = null;
        Set<String> keys = null;
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            String key = Requests.key(op, a);
            if (key == null || a.requestHash() == null) {
                continue;
            }
            if (only == null) {
                only = key;
            } else if (keys != null || !only.equals(key)) {
                if (keys == null) {
                    keys = new LinkedHashSet<>();
                    keys.add(only);
                }
                keys.add(key);
            }
        }
        return keys != null ? keys : only != null ? List.of(only) : Collections.emptyList();
    }

    @Override
    public Uses zero() {
        return new Uses();
    }

    @Override
    public Uses add(Uses uses, String key, Operation op, Policy policy) {
        List<Use> ofOp = new ArrayList<>();
        Set<String> hashes = new LinkedHashSet<>();
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (key.equals(Requests.key(op, a)) && a.requestHash() != null && hashes.add(a.requestHash())) {
                ofOp.add(new Use(a.requestHash(), op.id(), a.attemptId(), op.tool(), op.runId(), op.groupedBy(),
                        a.location()));
            }
        }
        uses.add(List.copyOf(ofOp));
        return uses;
    }

    @Override
    public Uses merge(Uses left, Uses right) {
        right.operations.forEach(left::add);
        return left;
    }

    @Override
    public void finish(String key, Uses uses, RuleContext ctx) {
        Use first = uses.first;
        for (List<Use> ofOp : uses.operations) {
            for (Use u : ofOp) {
                if (u.hash().equals(first.hash())) {
                    continue;
                }
                String where = first.operation().equals(u.operation()) ? "" : " of " + first.operation();
                Evidence evidence = Evidence.of().put("idempotency_key", key).put("request_hash", u.hash())
                        .put("first_request_hash", first.hash()).put("first_operation", first.operation())
                        .put("first_attempt", first.attempt())
                        .put("first_location", first.location().source() + ":" + first.location().line()
                                + ":" + first.location().column());
                if (u.groupedBy() != null) {
                    evidence.put(RuleContext.GROUPED_BY, u.groupedBy());
                }
                ctx.at(u.location()).operation(u.operation(), u.tool(), u.run()).attempt(u.attempt()).report("attempt " + u.attempt()
                        + " of " + u.operation() + " sends idempotency key " + key + " with request_hash " + u.hash()
                        + ", but attempt " + first.attempt() + where + " used that key with request_hash "
                        + first.hash() + ": the server will reject this request or return the first one's result",
                        evidence);
            }
        }
    }
}
