package dev.retryaudit.mcp;

import dev.retryaudit.report.RuleList;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.RuleDocs;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code list_rules} and {@code explain_rule}: the {@code rules} and {@code explain} commands as tools. */
final class RuleTools {
    static final String LIST_SCHEMA = """
            {"type": "object", "additionalProperties": false, "properties": {}}""";
    static final String EXPLAIN_SCHEMA = """
            {"type": "object", "additionalProperties": false, "required": ["rule"],
             "properties": {"rule": {"type": "string", "description": "A rule id (budget/max-attempts) or a family (budget)."}}}""";

    private RuleTools() {
    }

    static AuditTool.Result list(Map<String, Object> arguments) throws ToolError {
        new Args(arguments, Set.of());
        List<RuleInfo> rules = RuleRegistry.catalogue();
        return new AuditTool.Result(RuleList.text(rules), Map.of("rules", rows(rules)));
    }

    static AuditTool.Result explain(Map<String, Object> arguments) throws ToolError {
        String name = new Args(arguments, Set.of("rule")).required("rule");
        RuleInfo rule = RuleRegistry.info(name);
        if (rule != null) {
            String doc = RuleDocs.markdown(rule);
            if (doc == null) {
                throw new ToolError("no documentation for " + rule.id());
            }
            return new AuditTool.Result(doc, Map.of("rule", rows(List.of(rule)).get(0), "markdown", doc));
        }
        List<RuleInfo> family = RuleRegistry.family(name);
        if (!family.isEmpty()) {
            return new AuditTool.Result(RuleList.text(family), Map.of("family", name, "rules", rows(family)));
        }
        throw new ToolError(RuleRegistry.unknown(name, List.of()));
    }

    private static List<Map<String, String>> rows(List<RuleInfo> rules) {
        return rules.stream().map(r -> {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("id", r.id());
            row.put("family", r.family());
            row.put("severity", r.severity().id());
            row.put("summary", r.summary());
            row.put("runs", RuleList.runs(r));
            return row;
        }).toList();
    }
}
