package dev.retryaudit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.Setting;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The rows of the settings table ({@link Setting}) that a tool offers, as its arguments: their JSON Schema
 * properties, named in snake case with each limit a member of the {@code limits} object, and the values of a call
 * applied to an {@link AuditSettings.Builder} with the table's checks; a document row takes the
 * document itself, a JSON object, where the command line names a file.
 */
final class SettingArgs {
    /** What the objects that group arguments ({@code limits.bytes}) hold. */
    private static final Map<String, String> GROUPS = Map.of("limits",
            "Input limits, as audit's --limit-* options; each absent one keeps the audit default.");

    private final List<Setting> rows;

    SettingArgs(List<Setting> rows) {
        this.rows = List.copyOf(rows);
    }

    /** The names of the top-level arguments these rows take: {@code fail_on}, {@code limits}. */
    Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        rows.forEach(r -> names.add(path(r)[0]));
        return names;
    }

    /** Adds a property for each row to {@code properties}, the properties of a tool's input schema. */
    void schema(ObjectNode properties) {
        for (Setting row : rows) {
            String[] path = path(row);
            ObjectNode holder = properties;
            if (path.length == 2) {
                ObjectNode group = properties.has(path[0]) ? (ObjectNode) properties.get(path[0])
                        : properties.putObject(path[0]).put("type", "object").put("additionalProperties", false)
                                .put("description", GROUPS.get(path[0]));
                holder = group.has("properties") ? (ObjectNode) group.get("properties") : group.putObject("properties");
            }
            ObjectNode p = holder.putObject(path[path.length - 1]);
            if (row.document()) {
                p.put("type", "object");
            } else if (row.repeatable()) {
                p.put("type", "array").putObject("items").put("type", "string");
            } else if (row.limit().isPresent()) {
                p.put("type", "integer").put("minimum", 1).put("maximum", row.max());
            } else {
                ArrayNode choices = p.put("type", "string").putArray("enum");
                row.choices().forEach(choices::add);
            }
            p.put("description", row.document()
                    ? "The document itself, as the " + row.option() + " file holds it. " + row.description()
                    : row.description());
        }
    }

    /**
     * Applies the arguments {@code a} gives for these rows to {@code b}, in the table's order, each name of a
     * repeatable row only when {@code keep} keeps it; a document row's document is read now, under the
     * limits given. A bad value, or a document that cannot be read, is the call's error.
     */
    AuditSettings.Builder apply(Args a, AuditSettings.Builder b, ObjectMapper json, BiPredicate<Setting, String> keep)
            throws ToolError {
        Map<String, Args> groups = new LinkedHashMap<>();
        for (Setting row : rows) {
            String[] path = path(row);
            Args holder = a;
            if (path.length == 2) {
                if (!groups.containsKey(path[0])) {
                    groups.put(path[0], a.members(path[0], members(path[0])));
                }
                holder = groups.get(path[0]);
            }
            String name = path[path.length - 1];
            if (holder == null) {
                continue;
            }
            try {
                if (row.document()) {
                    Map<?, ?> document = holder.object(name);
                    if (document != null) {
                        row.read(b, new ByteArrayInputStream(json.writeValueAsBytes(document)), "<" + name + ">");
                    }
                } else {
                    row.applyJson(b, kept(row, holder.value(name), keep));
                }
            } catch (IllegalArgumentException e) {
                throw new ToolError(e.getMessage());
            } catch (RetryAuditException e) {
                throw new ToolError(e.diagnostic(SettingArgs::hint));
            } catch (IOException e) {
                throw new ToolError("cannot encode the " + name + ": " + Escaping.controls(String.valueOf(e.getMessage())));
            }
        }
        return b;
    }

    /** How a client raises {@code limit}: the member of the {@code limits} argument. */
    static String hint(Limit limit) {
        return limit == Limit.MEMORY ? "start the server with more heap (java -Xmx4g -jar retry-audit.jar mcp ...), "
                + "lower " + Setting.LIMIT_BYTES.argument() + ", or split the trace"
                : Limits.raiseWith(limit, "the argument " + Setting.of(limit).argument());
    }

    /** A list of names less those {@code keep} drops; any other value as it is, for the row's own check. */
    private static Object kept(Setting row, Object value, BiPredicate<Setting, String> keep) {
        if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            return value;
        }
        List<String> out = new ArrayList<>();
        list.forEach(n -> {
            if (keep.test(row, (String) n)) {
                out.add((String) n);
            }
        });
        return out;
    }

    /** The members of the group {@code group} these rows take. */
    private Set<String> members(String group) {
        Set<String> members = new LinkedHashSet<>();
        for (Setting row : rows) {
            String[] path = path(row);
            if (path.length == 2 && path[0].equals(group)) {
                members.add(path[1]);
            }
        }
        return members;
    }

    /** The argument of {@code row} as its steps: {@code [fail_on]}, {@code [limits, depth]}. */
    private static String[] path(Setting row) {
        return row.argument().split("\\.");
    }
}
