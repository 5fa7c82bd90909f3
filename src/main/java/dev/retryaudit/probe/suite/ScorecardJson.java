package dev.retryaudit.probe.suite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.report.ProbeFacts;
import java.nio.charset.StandardCharsets;

/**
 * The scorecard as JSON, as the {@code scorecard} schema describes it: the tool, the suite, the
 * command, whether untested rows pass, the result and the totals, then one object per scenario.
 */
final class ScorecardJson {
    /** The schema's URI, which the document names. */
    static final String SCHEMA = "https://github.com/retry-audit/retry-audit/schemas/scorecard.schema.json";

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScorecardJson() {
    }

    static byte[] of(Scorecard card) {
        ObjectNode root = tree(card);
        try {
            return (MAPPER.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings and numbers always serializes", e);
        }
    }

    /** The document as a tree. */
    static ObjectNode tree(Scorecard card) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("$schema", SCHEMA);
        root.put("tool", card.toolName());
        root.put("version", card.toolVersion());
        root.put("suite", card.suite());
        ArrayNode command = root.putArray("command");
        card.command().forEach(command::add);
        root.put("allow_not_tested", card.allowNotTested());
        root.put("passed", card.passed());
        ObjectNode totals = root.putObject("totals");
        totals.put("scenarios", card.rows().size());
        totals.put(ProbeFacts.HONOURED, card.count(ProbeFacts.HONOURED));
        totals.put(ProbeFacts.VIOLATED, card.count(ProbeFacts.VIOLATED));
        totals.put(ProbeFacts.NOT_TESTED, card.count(ProbeFacts.NOT_TESTED));
        ArrayNode rows = root.putArray("scenarios");
        for (ScorecardRow r : card.rows()) {
            ObjectNode o = rows.addObject();
            o.put("id", r.id());
            o.put("title", r.title());
            o.put("server", r.server());
            o.put("client", r.client());
            o.put("verdict", r.verdict());
            o.put("fails", card.fails(r));
            o.put("rule", r.rule());
            o.put("finding", r.finding());
            o.put("attempts", r.facts().attempts());
            ArrayNode waits = o.putArray("waits_ms");
            r.facts().waitsMs().forEach(waits::add);
            if (r.facts().exitCode() == null) {
                o.putNull("exit_code");
            } else {
                o.put("exit_code", r.facts().exitCode());
            }
            o.put("timed_out", r.facts().timedOut());
        }
        return root;
    }
}
