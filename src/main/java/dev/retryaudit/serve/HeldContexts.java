package dev.retryaudit.serve;

import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.LinkingContexts;
import dev.retryaudit.input.foreign.PackedSpans;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The attempt spans {@code serve} holds, by the linking context they belong to
 * ({@link LinkingContexts#of}), until a context closes: it has been idle for the idle time plus the
 * longest Retry-After seen in it, with every context that shares a trace with it (an SDK call span and
 * its sends, a parent and its children stand in two contexts of one trace, and are linked together, as
 * the spans of one file are). A context still open may be cut in a window when it is old or large. The
 * spans are held packed ({@link PackedSpans}), never the JSON they came as nor the reader's objects. Not
 * thread-safe: the receiver holds its lock.
 */
final class HeldContexts {
    /** The spans of one context past which it is audited in a window, however busy. */
    static final int WINDOW_SPANS = 20_000;
    /** The spans of contexts that closed together past which they are taken in another part. */
    static final int PART_SPANS = 4_096;

    private final long idleNanos;
    private final Map<String, Context> open = new LinkedHashMap<>();
    /** The open contexts by the traces of their spans: one key, or a set of them ({@link #plus}). */
    private final Map<String, Object> byTrace = new HashMap<>();
    private long spans;

    /**
     * One linking context held: its attempt spans, their traces, when it got its first and last one, the
     * longest Retry-After seen, and when it may next be cut in a window.
     */
    private static final class Context {
        final List<byte[]> spans = new ArrayList<>(2);
        /** One trace, or a set of them ({@link #plus}). */
        Object traces;
        long first;
        long last;
        long retryAfterNanos;
        long nextWindow;
    }

    /** A window of an open context to audit: its key, a copy of its packed spans and the quiet time that closes it. */
    record Window(String key, List<byte[]> spans, long quietNanos) {
    }

    HeldContexts(long idleNanos) {
        this.idleNanos = idleNanos;
    }

    /** Spans held now. */
    long spans() {
        return spans;
    }

    boolean isEmpty() {
        return open.isEmpty();
    }

    /**
     * Holds {@code span}, packed, of trace {@code trace} and context {@code key}, whose response asked to wait
     * {@code retryAfterNanos}, at {@code now}.
     */
    void hold(byte[] span, String trace, String key, long retryAfterNanos, long now) {
        Context c = open.get(key);
        if (c == null) {
            c = new Context();
            c.first = now;
            c.nextWindow = now;
            open.put(key, c);
        }
        c.spans.add(span);
        c.last = now;
        c.retryAfterNanos = Math.max(c.retryAfterNanos, retryAfterNanos);
        if (!(c.traces instanceof String one ? one.equals(trace) : all(c.traces).contains(trace))) {
            c.traces = plus(c.traces, trace);
            byTrace.put(trace, plus(byTrace.get(trace), key));
        }
        spans++;
    }

    /**
     * The spans of every context that closed by {@code now}, taken, in parts of about {@value #PART_SPANS} spans
     * or one group of contexts that share traces, each part's in the order they came.
     */
    List<List<byte[]>> takeClosed(long now) {
        List<Set<String>> due = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, Context> e : open.entrySet()) {
            if (!seen.contains(e.getKey()) && idle(e.getValue(), now)) {
                Set<String> component = component(List.of(e.getKey()));
                seen.addAll(component);
                if (component.stream().allMatch(k -> idle(open.get(k), now))) {
                    due.add(component);
                }
            }
        }
        return parts(due);
    }

    /** The spans of every context, taken, in parts as {@link #takeClosed} gives them. */
    List<List<byte[]>> takeAll() {
        List<Set<String>> all = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String key : open.keySet()) {
            if (!seen.contains(key)) {
                Set<String> component = component(List.of(key));
                seen.addAll(component);
                all.add(component);
            }
        }
        return parts(all);
    }

    /**
     * The spans of {@code components} (groups of contexts that share traces), taken, in parts of whole groups of
     * about {@value #PART_SPANS} spans: a part is linked and audited at once, and what linking it makes dies
     * young, where the spans of every context that closed in one sweep would outlive a collection or two.
     */
    private List<List<byte[]>> parts(List<Set<String>> components) {
        List<List<byte[]>> parts = new ArrayList<>();
        List<String> part = new ArrayList<>();
        int partSpans = 0;
        for (Set<String> component : components) {
            part.addAll(component);
            for (String key : component) {
                partSpans += open.get(key).spans.size();
            }
            if (partSpans >= PART_SPANS) {
                parts.add(take(part));
                part = new ArrayList<>();
                partSpans = 0;
            }
        }
        if (!part.isEmpty()) {
            parts.add(take(part));
        }
        return parts;
    }

    /**
     * The contexts, still open, that are old (twice the idle time and their Retry-After) or large
     * ({@value #WINDOW_SPANS} spans) enough to be audited in a window, each with a copy of its spans.
     */
    List<Window> windowsDue(long now) {
        List<Window> due = new ArrayList<>();
        for (Map.Entry<String, Context> e : open.entrySet()) {
            Context c = e.getValue();
            long quiet = idleNanos + c.retryAfterNanos;
            if (now - c.nextWindow >= 0 && (now - c.first >= 2 * quiet || c.spans.size() >= WINDOW_SPANS)) {
                due.add(new Window(e.getKey(), new ArrayList<>(c.spans), quiet));
                // However the window falls, the context is looked at again no sooner than half its quiet time.
                c.nextWindow = now + Math.max(quiet / 2, 1_000_000L);
            }
        }
        return due;
    }

    /**
     * Lets go of the spans of window {@code w} ({@code unpacked}: the same, unpacked) that {@code cut} lets go, if
     * its context is still open: the window's operations that closed were audited. The spans let go, in the order
     * they came; null when the context was no longer open.
     */
    List<ForeignSpan> letGo(Window w, List<ForeignSpan> unpacked, ContextWindow.Cut cut, long now) {
        Context c = open.get(w.key());
        if (c == null) {
            return null;
        }
        Map<byte[], ForeignSpan> let = new IdentityHashMap<>();
        for (int i = 0; i < unpacked.size(); i++) {
            ForeignSpan span = unpacked.get(i);
            if (cut.letsGo(span.spanId(), span.startNanos())) {
                let.put(w.spans().get(i), span);
            }
        }
        List<ForeignSpan> gone = new ArrayList<>(let.size());
        c.spans.removeIf(span -> {
            ForeignSpan s = let.get(span);
            return s != null && gone.add(s);
        });
        c.first = now;
        spans -= let.size();
        return gone;
    }

    /**
     * Takes the spans of the contexts named and of every open context that shares a trace with them,
     * in the order they came.
     */
    private List<byte[]> take(List<String> keys) {
        List<byte[]> out = new ArrayList<>();
        for (String key : component(keys)) {
            Context c = open.remove(key);
            out.addAll(c.spans);
            for (String trace : all(c.traces)) {
                Object in = byTrace.get(trace);
                if (in != null) {
                    Object rest = minus(in, key);
                    if (rest == null) {
                        byTrace.remove(trace);
                    } else if (rest != in) {
                        byTrace.put(trace, rest);
                    }
                }
            }
        }
        spans -= out.size();
        out.sort((x, y) -> Long.compare(PackedSpans.order(x), PackedSpans.order(y)));
        return out;
    }

    /** Whether a context has been idle for the idle time plus its longest Retry-After. */
    private boolean idle(Context c, long now) {
        return now - c.last >= idleNanos + c.retryAfterNanos;
    }

    /**
     * {@code few}, one string, a set of two or more, or null for none, with {@code s} added, absent from it: most
     * contexts have one trace and most traces one context, so neither needs a set of its own.
     */
    @SuppressWarnings("unchecked")
    private static Object plus(Object few, String s) {
        if (few == null) {
            return s;
        }
        if (few instanceof String one) {
            Set<String> two = new HashSet<>(4);
            two.add(one);
            two.add(s);
            return two;
        }
        ((Set<String>) few).add(s);
        return few;
    }

    /** {@code few} without {@code s}: one string, a set of two or more, or null for none. */
    @SuppressWarnings("unchecked")
    private static Object minus(Object few, String s) {
        if (few instanceof String one) {
            return one.equals(s) ? null : one;
        }
        Set<String> set = (Set<String>) few;
        set.remove(s);
        return set.size() > 1 ? set : set.isEmpty() ? null : set.iterator().next();
    }

    /** The strings of {@code few}. */
    @SuppressWarnings("unchecked")
    private static Collection<String> all(Object few) {
        return few == null ? List.of() : few instanceof String one ? List.of(one) : (Set<String>) few;
    }

    /** The open contexts named and every open context that shares a trace with one of them, transitively. */
    private Set<String> component(List<String> keys) {
        Set<String> component = new LinkedHashSet<>();
        List<String> stack = new ArrayList<>(keys);
        while (!stack.isEmpty()) {
            String key = stack.remove(stack.size() - 1);
            Context c = open.get(key);
            if (c == null || !component.add(key)) {
                continue;
            }
            for (String trace : all(c.traces)) {
                stack.addAll(all(byTrace.get(trace)));
            }
        }
        return component;
    }
}
