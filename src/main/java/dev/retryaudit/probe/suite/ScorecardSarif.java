package dev.retryaudit.probe.suite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.sarif.Sarif;
import java.nio.charset.StandardCharsets;

/**
 * The scorecard as SARIF 2.1.0: one rule per scenario ({@code SUITE/ID}, described by its title), and
 * one result per scenario: {@code pass} for honoured, {@code fail} (error) for violated, {@code open}
 * for not tested (an error when it fails the scorecard, a note when untested rows are allowed). The
 * results carry no location, since a probe run reads no file; the deciding rule, verdict, server and
 * client are in each result's properties.
 */
final class ScorecardSarif {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScorecardSarif() {
    }

    static byte[] of(Scorecard card) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("$schema", Sarif.SCHEMA);
        root.put("version", "2.1.0");
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", card.toolName());
        driver.put("version", card.toolVersion());
        ArrayNode rules = driver.putArray("rules");
        ArrayNode results = run.putArray("results");
        for (int i = 0; i < card.rows().size(); i++) {
            ScorecardRow r = card.rows().get(i);
            ObjectNode rule = rules.addObject();
            rule.put("id", card.suite() + "/" + r.id());
            rule.putObject("shortDescription").put("text", r.title());
            ObjectNode result = results.addObject();
            result.put("ruleId", card.suite() + "/" + r.id());
            result.put("ruleIndex", i);
            result.put("kind", kind(r.verdict()));
            result.put("level", r.verdict().equals(ProbeFacts.HONOURED) ? "none" : card.fails(r) ? "error" : "note");
            result.putObject("message").put("text", r.id() + ": " + r.verdict().replace('_', ' ') + ": "
                    + (r.rule() == null ? "" : r.rule() + ": ") + r.finding());
            ObjectNode properties = result.putObject("properties");
            properties.put("verdict", r.verdict());
            properties.put("deciding_rule", r.rule());
            properties.put("server", r.server());
            properties.put("client", r.client());
        }
        ObjectNode invocation = run.putArray("invocations").addObject();
        invocation.put("executionSuccessful", true);
        invocation.put("commandLine", card.commandLine());
        run.putObject("properties").put("suite", card.suite()).put("passed", card.passed())
                .put("total", card.total());
        try {
            return (MAPPER.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings and numbers always serializes", e);
        }
    }

    private static String kind(String verdict) {
        return switch (verdict) {
            case ProbeFacts.HONOURED -> "pass";
            case ProbeFacts.VIOLATED -> "fail";
            default -> "open";
        };
    }
}
