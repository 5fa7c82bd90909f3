package dev.retryaudit.api.split;

import dev.retryaudit.input.foreign.NoteParts;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Limits;
import dev.retryaudit.rules.engine.Engine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * One part of an audit split across threads, processes or machines: what {@link SplitAudit#auditPart}
 * found in its operations, what the cross-operation rules aggregated, not yet judged, and the input
 * notes of what it read. Parts of one input, in any split and any order, {@link SplitAudit#merge merge}
 * into the findings and notes of one pass, by an auditor with the same policy, rules and limits. For an
 * engine that merges by key across machines (a Spark shuffle), a part comes apart into its
 * {@link #findings}, final as they are, and its {@link #pieces}, each to merge with the pieces of its
 * {@link #group} from every part (or as many pieces as there are reducing tasks, {@link #pieces(int)},
 * after {@link SplitAudit#combine combining} the parts of one task). Immutable and serializable.
 */
public final class AuditPart implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Engine.Partial state;
    private final Limits limits;
    private final long operations;
    private final long attempts;
    private final NoteParts notes;
    private final String group;

    AuditPart(Engine.Partial state, Limits limits, long operations, long attempts, NoteParts notes, String group) {
        this.state = state;
        this.limits = limits;
        this.operations = operations;
        this.attempts = attempts;
        this.notes = notes;
        this.group = group;
    }

    Engine.Partial state() {
        return state;
    }

    /** The limits of the auditor that audited this part. */
    Limits limits() {
        return limits;
    }

    NoteParts notes() {
        return notes;
    }

    /** The operations audited in this part. */
    public long operations() {
        return operations;
    }

    /** Their attempts. */
    public long attempts() {
        return attempts;
    }

    /** What a piece of a part holds (one rule and key, or one source's notes), the same in every part; null for a whole part. */
    public String group() {
        return group;
    }

    /** The findings of the part's per-operation rules; they need no merge. */
    public List<Finding> findings() {
        return state.findings();
    }

    /**
     * The part's cross-operation aggregates, one piece per rule and key, and its notes, one piece per
     * source: the pieces of one {@link #group}, from all parts of one input, merge into that key's
     * findings or that source's notes.
     */
    public List<AuditPart> pieces() {
        return new ArrayList<>(split(g -> g).values());
    }

    /**
     * The part's cross-operation aggregates and notes in at most {@code groups} pieces, by group number
     * ({@code 0} to {@code groups - 1}, its {@link #group} in decimal): each rule and key, and each
     * source's notes, falls in the same group in every part, so the pieces of one group number, from all
     * parts of one input split the same way, merge into the findings of its keys and the notes of its
     * sources. A group with nothing in it has no piece.
     */
    public Map<Integer, AuditPart> pieces(int groups) {
        if (groups < 1) {
            throw new IllegalArgumentException("groups must be at least 1: " + groups);
        }
        Map<Integer, AuditPart> out = new TreeMap<>();
        split(g -> Integer.toString(Math.floorMod(g.hashCode(), groups)))
                .forEach((g, piece) -> out.put(Integer.valueOf(g), piece));
        return out;
    }

    /**
     * The part's aggregates and notes apart by {@code groupOf} of each one's own group (a rule and key, a
     * source's notes), in the order of their first member.
     */
    private Map<String, AuditPart> split(UnaryOperator<String> groupOf) {
        Map<String, Map<Object, Object>> aggregates = state.aggregates();
        Map<String, Map<String, Map<Object, Object>>> byGroup = new LinkedHashMap<>();
        aggregates.forEach((rule, byKey) -> byKey.forEach((key, aggregate) -> byGroup
                .computeIfAbsent(groupOf.apply(rule + "\u0000" + group(key)), g -> empty(aggregates))
                .get(rule).put(key, aggregate)));
        Map<String, NoteParts> notesByGroup = new LinkedHashMap<>();
        notes.bySource().forEach((source, its) -> {
            String g = groupOf.apply("\u0001notes\u0000" + source);
            byGroup.computeIfAbsent(g, k -> empty(aggregates));
            notesByGroup.computeIfAbsent(g, k -> new NoteParts()).merge(its);
        });
        Map<String, AuditPart> out = new LinkedHashMap<>();
        byGroup.forEach((g, its) -> out.put(g, new AuditPart(new Engine.Partial(state.setup(), List.of(), its), limits,
                0, 0, notesByGroup.getOrDefault(g, new NoteParts()), g)));
        return out;
    }

    /** An aggregate map for each of the part's rules, each empty. */
    private static Map<String, Map<Object, Object>> empty(Map<String, Map<Object, Object>> aggregates) {
        Map<String, Map<Object, Object>> none = new LinkedHashMap<>();
        aggregates.keySet().forEach(id -> none.put(id, new HashMap<>()));
        return none;
    }

    /** A key as text that is equal exactly when the keys are: strings as they are, other keys by their serial form. */
    private static String group(Object key) {
        if (key == null) {
            return "n";
        }
        if (key instanceof String s) {
            return "s" + s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(key);
        } catch (IOException e) {
            throw new UncheckedIOException("a cross-operation key must be serializable", e);
        }
        return "o" + Base64.getEncoder().encodeToString(bytes.toByteArray());
    }
}
