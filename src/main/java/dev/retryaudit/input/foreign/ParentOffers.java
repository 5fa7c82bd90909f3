package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Operation;
import dev.retryaudit.model.values.ParentRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parents of operations linked context by context ({@link LinkingContexts#link}): each linked
 * operation offers its attempts by the {@code trace/span} key of the span each came from, and an
 * operation whose first span is a child of such a span gets that attempt for its parent. Where two
 * operations offer one span (copies kept apart), the one whose first span stands later in the source
 * wins ({@link #wins}), as in a whole source linked at once. A receiver that links as spans come keeps
 * the offers of the latest spans only ({@link #latest}); an engine that joins offers itself applies
 * {@link #wins} and {@link #parented}. The offers are held as numbers ({@link OfferTable}). Not thread-safe.
 */
public final class ParentOffers {
    private final OfferTable offers;

    private ParentOffers(int most) {
        this.offers = new OfferTable(most);
    }

    /** Offers kept for every operation linked. */
    public ParentOffers() {
        this(Integer.MAX_VALUE);
    }

    /** Offers kept for the {@code most} spans offered last, for a receiver that links as spans come. */
    public static ParentOffers latest(int most) {
        return new ParentOffers(most);
    }

    /** The span keys whose offers are held. */
    public int held() {
        return offers.size();
    }

    /**
     * Whether an offer of an operation whose first span stands at {@code order} replaces one of an
     * operation whose first span stands at {@code held}: the later wins, and of one place the one offered last.
     */
    public static boolean wins(long order, long held) {
        return order >= held;
    }

    /** Takes the offers of {@code l}. */
    public void offer(RetryLinker.Linked l) {
        offer(l.offers(), l.firstOrder());
    }

    /** Takes {@code attempts}, by span key, offered by an operation whose first span stands at {@code order}. */
    void offer(Map<String, ParentRef> attempts, long order) {
        attempts.forEach((span, attempt) -> offers.offer(span, attempt, order));
    }

    /** The attempt offered for the span of key {@code spanKey}, or null. */
    public ParentRef get(String spanKey) {
        return spanKey == null ? null : offers.get(spanKey);
    }

    /** The operation of {@code l} with its parent among the offers taken, if any. */
    public Operation parented(RetryLinker.Linked l) {
        return l.withParent(get(l.parentKey()));
    }

    /** Takes the offers of every one of {@code linked}, then gives each its parent: the operations in their order. */
    public List<Operation> parented(List<RetryLinker.Linked> linked) {
        linked.forEach(this::offer);
        List<Operation> out = new ArrayList<>(linked.size());
        linked.forEach(l -> out.add(parented(l)));
        return out;
    }

    /**
     * {@code op}, linked without its parent, with {@code parent} for it: unchanged when {@code parent} is null
     * or one of its own attempts (a span under a span of the same operation).
     */
    public static Operation withParent(Operation op, ParentRef parent) {
        return parent == null || parent.operation().equals(op.id()) ? op
                : op.toBuilder().parent(parent.operation(), parent.attempt()).build();
    }
}
