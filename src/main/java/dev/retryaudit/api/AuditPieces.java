package dev.retryaudit.api;

import dev.retryaudit.model.Finding;
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

/**
 * An {@link AuditPart} taken apart for an engine that merges by key across machines (a Spark
 * shuffle): the findings of its per-operation rules, final as they are, and one piece per
 * cross-operation rule and key. Pieces with the same {@link Piece#group() group}, from all parts of
 * one input, {@link RetryAudit#merge merge} into that key's findings; together with the
 * per-operation findings these are the findings of one pass over the input.
 */
public final class AuditPieces {
    private AuditPieces() {
    }

    /** One rule's aggregate of one key, as a part of its own; {@code group} names the rule and key. */
    public record Piece(String group, AuditPart part) implements Serializable {
    }

    /** The findings of the part's per-operation rules; they need no merge. */
    public static List<Finding> findings(AuditPart part) {
        return part.state().findings();
    }

    /** The part's cross-operation aggregates, one piece per rule and key. */
    public static List<Piece> pieces(AuditPart part) {
        Map<String, Map<Object, Object>> aggregates = part.state().aggregates();
        List<Piece> out = new ArrayList<>();
        aggregates.forEach((rule, byKey) -> byKey.forEach((key, aggregate) -> {
            Map<String, Map<Object, Object>> only = new LinkedHashMap<>();
            aggregates.keySet().forEach(id -> only.put(id, Map.of()));
            Map<Object, Object> one = new HashMap<>();
            one.put(key, aggregate);
            only.put(rule, one);
            out.add(new Piece(rule + "\u0000" + group(key),
                    new AuditPart(new Engine.Partial(part.state().setup(), List.of(), only), part.limits(), 0, 0)));
        }));
        return out;
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
