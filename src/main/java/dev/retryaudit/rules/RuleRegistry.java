package dev.retryaudit.rules;

import dev.retryaudit.rules.retryafter.Early;
import dev.retryaudit.rules.retryafter.Excessive;
import dev.retryaudit.rules.retryafter.Invalid;
import dev.retryaudit.rules.trace.AttemptSequence;
import dev.retryaudit.rules.validationrepeat.Identical;
import dev.retryaudit.rules.validationrepeat.Loop;
import dev.retryaudit.rules.validationrepeat.Unverifiable;
import dev.retryaudit.rules.trace.ClockOrder;
import dev.retryaudit.rules.trace.Overlap;
import dev.retryaudit.rules.trace.RetryReason;
import dev.retryaudit.rules.trace.SpanReuse;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The one explicit list of built-in rules, in catalogue order (RULES.md). */
public final class RuleRegistry {
    private static final List<Rule> ALL = List.of(
            new Early(),
            new Invalid(),
            new Excessive(),
            new Identical(),
            new Unverifiable(),
            new Loop(),
            new AttemptSequence(),
            new RetryReason(),
            new SpanReuse(),
            new ClockOrder(),
            new Overlap());

    private static final Map<String, Rule> BY_ID = index(ALL);

    private RuleRegistry() {
    }

    public static List<Rule> all() {
        return ALL;
    }

    /** The rule with this id, or null. */
    public static Rule byId(String id) {
        return BY_ID.get(id);
    }

    public static Set<String> ids() {
        return BY_ID.keySet();
    }

    /** The families, in catalogue order. */
    public static Set<String> families() {
        Set<String> families = new LinkedHashSet<>();
        ALL.forEach(r -> families.add(r.info().family()));
        return families;
    }

    private static Map<String, Rule> index(List<Rule> rules) {
        Map<String, Rule> byId = new LinkedHashMap<>();
        for (Rule r : rules) {
            if (byId.put(r.info().id(), r) != null) {
                throw new IllegalStateException("rule id registered twice: " + r.info().id());
            }
        }
        return byId;
    }
}
