package dev.retryaudit.rules.timeoutreplay;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.text.Wire;

/** The evidence every timeout-replay finding starts with: the attempt whose fate was unknown and how it ended (with its gRPC status, for a gRPC call). */
final class Timeouts {
    private Timeouts() {
    }

    static Evidence evidence(Attempt prior) {
        Evidence e = Evidence.of()
                .put("prior_attempt", prior.attemptId())
                .put("prior_commit_state", prior.commitState() == null ? null : Wire.name(prior.commitState(), '_'))
                .put("prior_outcome", prior.outcome() == null ? null : Wire.name(prior.outcome(), '_'));
        return prior.grpcStatus() == null ? e : e.put("prior_grpc_status", prior.grpcStatus().name());
    }
}
