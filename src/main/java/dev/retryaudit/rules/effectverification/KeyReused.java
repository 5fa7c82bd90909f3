package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.Requests;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One idempotency key sent with different request contents, within or across operations: the
 * server will reject the second request or silently return the first one's result. Remembers, per
 * key, only the first request_hash and where it was seen; each operation is reported once per key
 * and differing hash, at its first attempt that sent it. Attempts without a request_hash are skipped.
 */
public final class KeyReused implements CrossOperationRule {
    static final RuleInfo INFO = new RuleInfo("effect-verification/key-reused", Severity.ERROR,
            "one idempotency key is used with different request_hash values (within or across operations)");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Tally start(RuleContext ctx) {
        return new Keys(ctx);
    }

    /** The first use of a key. */
    private record FirstUse(String hash, String operation, int attempt, Location location) {
    }

    /** Per key, its first use. */
    private static final class Keys implements Tally {
        private final RuleContext ctx;
        private final Map<String, FirstUse> firstUses = new HashMap<>();

        Keys(RuleContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void add(Operation op) {
            if (!ctx.policy().isWrite(op)) {
                return;
            }
            Set<List<String>> reported = new HashSet<>();
            for (Attempt a : op.attempts()) {
                String key = Requests.key(op, a);
                if (key == null || a.requestHash() == null) {
                    continue;
                }
                FirstUse first = firstUses.putIfAbsent(key, new FirstUse(a.requestHash(), op.id(), a.attemptId(),
                        a.location()));
                if (first == null || first.hash().equals(a.requestHash())
                        || !reported.add(List.of(key, a.requestHash()))) {
                    continue;
                }
                String where = first.operation().equals(op.id()) ? "" : " of " + first.operation();
                ctx.report(op, a, "attempt " + a.attemptId() + " of " + op.id() + " sends idempotency key " + key
                        + " with request_hash " + a.requestHash() + ", but attempt " + first.attempt() + where
                        + " used that key with request_hash " + first.hash()
                        + ": the server will reject this request or return the first one's result",
                        Evidence.of().put("idempotency_key", key).put("request_hash", a.requestHash())
                                .put("first_request_hash", first.hash()).put("first_operation", first.operation())
                                .put("first_attempt", first.attempt())
                                .put("first_location", first.location().source() + ":" + first.location().line()
                                        + ":" + first.location().column()));
            }
        }

        @Override
        public void finish() {
            // Each reuse was reported when it was seen; nothing waits for the end of the input.
        }
    }
}
