package dev.retryaudit.cli;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import java.util.ArrayList;
import java.util.List;

/**
 * The gate that never passes on nothing: an input set that holds no attempt at all was not audited, so
 * {@code audit} refuses it (exit 65) with one line saying what each input held instead and what to
 * change, unless {@code --allow-empty} lets it pass with its input notes. Neither {@code --fail-on never}
 * nor a baseline changes this: both decide on findings, and an input set of no attempt has none to decide on.
 */
final class NothingAudited {
    /** The inputs named in the line at most; the rest are counted. */
    private static final int NAMED = 3;

    private NothingAudited() {
    }

    /** The rejection of {@code inputs} when none of them holds an attempt, else null. */
    static RetryAuditException check(List<InputSummary> inputs) {
        if (inputs.isEmpty() || inputs.stream().anyMatch(i -> i.attempts() > 0)) {
            return null;
        }
        List<String> held = new ArrayList<>();
        if (inputs.size() == 1) {
            held.add("the input holds " + found(inputs.get(0)));
        } else {
            held.add("none of the " + inputs.size() + " inputs holds an attempt");
            for (InputSummary i : inputs.subList(0, Math.min(NAMED, inputs.size()))) {
                held.add(i.source() + " holds " + found(i));
            }
            if (inputs.size() > NAMED) {
                held.add((inputs.size() - NAMED) + " more inputs hold no attempt either");
            }
        }
        return InputRejection.rejected(inputs.get(0).source(), 0, 0, "nothing was audited: "
                + String.join("; ", held) + "; export the client spans (SpanKind CLIENT) of HTTP requests, gRPC calls or "
                + "GenAI tool calls, check the exporter's destination and the sampler, or pass --allow-empty to "
                + "pass on an input set of no attempt");
    }

    /** What {@code input} held instead of an attempt, from its note that says so. */
    private static String found(InputSummary input) {
        for (InputNote n : input.notes()) {
            String found = n.nothingAudited();
            if (found != null) {
                return found;
            }
        }
        return "no attempt";
    }
}
