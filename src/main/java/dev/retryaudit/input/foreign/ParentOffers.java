package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Operation;
import dev.retryaudit.model.values.ParentRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parents of operations linked context by context ({@link LinkingContexts#link}): each linked
 * operation offers its attempts by the {@code trace/span} key of the span each came from, and an
 * operation whose first span is a child of such a span gets that attempt for its parent. Where two
 * operations offer one span (copies kept apart), the one whose first span stands later in the source
 * wins ({@link #wins}), as in a whole source linked at once. A receiver that links as spans come keeps
 * the offers of the latest spans only ({@link #latest}); an engine that joins offers itself applies
 * {@link #wins} and {@link #parented}. Not thread-safe.
 */
public final class ParentOffers {
    /** An attempt offered, and where the first span of its operation stands. */
    private record Held(ParentRef attempt, long order) {
    }

    /**
     * A span key as held: {@code trace/span} of 32 and 16 lower-case hex digits, as OTLP's ids are written, as
     * the three numbers they spell (40 bytes against about 100 for the string); any other key is held as its string.
     */
    private record Ids(long traceHigh, long traceLow, long span) {
        private static final int TRACE = 32;
        private static final int SPAN = 16;

        static Object of(String key) {
            if (key.length() != TRACE + 1 + SPAN || key.charAt(TRACE) != '/' || !hex(key, 0, TRACE)
                    || !hex(key, TRACE + 1, key.length())) {
                return key;
            }
            return new Ids(Long.parseUnsignedLong(key, 0, SPAN, SPAN), Long.parseUnsignedLong(key, SPAN, TRACE, SPAN),
                    Long.parseUnsignedLong(key, TRACE + 1, key.length(), SPAN));
        }

        private static boolean hex(String s, int from, int to) {
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                    return false;
                }
            }
            return true;
        }
    }

    private final Map<Object, Held> offers;

    private ParentOffers(Map<Object, Held> offers) {
        this.offers = offers;
    }

    /** Offers kept for every operation linked. */
    public ParentOffers() {
        this(new HashMap<>());
    }

    /** Offers kept for the {@code most} spans offered last, for a receiver that links as spans come. */
    public static ParentOffers latest(int most) {
        return new ParentOffers(new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Object, Held> eldest) {
                return size() > most;
            }
        });
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
        attempts.forEach((span, attempt) -> {
            Object key = Ids.of(span);
            Held held = offers.get(key);
            if (held == null || wins(order, held.order())) {
                offers.put(key, new Held(attempt, order));
            }
        });
    }

    /** The attempt offered for the span of key {@code spanKey}, or null. */
    public ParentRef get(String spanKey) {
        Held held = spanKey == null ? null : offers.get(Ids.of(spanKey));
        return held == null ? null : held.attempt();
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
