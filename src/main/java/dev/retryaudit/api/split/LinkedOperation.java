package dev.retryaudit.api.split;

import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.values.ParentRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One operation of a linking context of OTLP spans, linked before its parent is known (a parent is an
 * attempt of another context's operation): the key ({@code trace/span}) of the span its first span is
 * a child of, the attempts its spans became by the same key (offered to the operations whose parent
 * they are), and where its first span stands in the source.
 */
public final class LinkedOperation {
    private final RetryLinker.Linked linked;

    LinkedOperation(RetryLinker.Linked linked) {
        this.linked = linked;
    }

    /** The operation without its parent. */
    public Operation operation() {
        return linked.operation();
    }

    /** The {@code trace/span} key of the span the operation's first span is a child of, or null for a root span. */
    public String parentKey() {
        return linked.parentKey();
    }

    /** The ids of the operation's attempts by the {@code trace/span} key of the span each came from. */
    public Map<String, Integer> offers() {
        Map<String, Integer> ids = new LinkedHashMap<>();
        linked.offers().forEach((span, ref) -> ids.put(span, ref.attempt()));
        return ids;
    }

    /** Where the operation's first span stands in its source: operations are handed on in this order. */
    public long firstOrder() {
        return linked.firstOrder();
    }

    /**
     * The operation with attempt {@code attempt} of operation {@code operation} for its parent: the attempt that
     * another operation's {@link #offers} gave for {@link #parentKey}.
     */
    public Operation withParent(String operation, int attempt) {
        return linked.withParent(new ParentRef(Objects.requireNonNull(operation, "operation"), attempt));
    }
}
