package dev.retryaudit.config;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code --tools FILE}: which tools write, said where the tools are declared, for the tool calls
 * an export does not tell (an agent's tool spans with no send under them). Two shapes: an MCP
 * {@code tools/list} result ({@code {"tools": [...]}}, bare or as a JSON-RPC response's {@code result}),
 * whose annotations say it ({@code readOnlyHint} a read, else a write; {@code idempotentHint} a tool that
 * deduplicates), read leniently as a foreign format; or the tools file ({@code {"version": 1, "tools":
 * [{"name", "effect", "idempotent", "key_argument"}]}}), read strictly as our formats are. The policy's
 * per-tool settings come first: a tool the policy names keeps them. A tool's key argument names the
 * argument whose value is the call's idempotency key; the policy has no such setting, so it applies to
 * every tool the file names.
 */
public final class ToolsReader {
    private static final List<String> FILE_FIELDS = List.of("version", "$schema", "tools");
    private static final List<String> TOOL_FIELDS = List.of("name", "effect", "idempotent", "key_argument");

    /**
     * What the file says of one tool: its effect, whether it deduplicates by idempotency key, and the
     * argument whose value is the call's key (or null).
     */
    private record Facts(Effect effect, boolean idempotent, String keyArgument) {
    }

    private final StrictDocument doc;
    private final JsonCursor c;
    private final Map<String, Facts> tools = new LinkedHashMap<>();
    private boolean ours;
    private boolean listed;

    private ToolsReader(StrictDocument doc) {
        this.doc = doc;
        this.c = doc.cursor();
    }

    /** {@code policy} with the tools of {@code file} it does not name; a file that cannot be read is exit 66. */
    public static Policy apply(Policy policy, Path file, Limits limits) throws InputException {
        return with(policy, StrictDocument.read(new InputSet.Source(file.toString(), file), limits,
                doc -> new ToolsReader(doc).document()));
    }

    /** {@code policy} with the tools read from {@code raw} it does not name; {@code source} names it in errors. */
    public static Policy apply(Policy policy, InputStream raw, String source, Limits limits)
            throws IOException, InputException {
        return with(policy, StrictDocument.read(raw, source, limits, doc -> new ToolsReader(doc).document()));
    }

    /** {@code policy} with the tools {@code read} that it does not name, and the key arguments read. */
    private static Policy with(Policy policy, Map<String, Facts> read) {
        Policy.Builder b = policy.toBuilder();
        read.forEach((name, f) -> {
            if (!policy.tools().contains(name)) {
                b.tool(name, f.effect(), null, f.idempotent() ? Boolean.TRUE : null);
            }
            if (f.keyArgument() != null) {
                b.keyArgument(name, f.keyArgument());
            }
        });
        return b.build();
    }

    private Map<String, Facts> document() throws IOException, InputException {
        doc.object("empty input: expected a tools file or an MCP tools/list result (a JSON object)",
                "a tools file or an MCP tools/list result", this::topField);
        if (!listed) {
            throw InputException.rejected(c.source(), 1, 1, "$", "missing required field tools: expected the "
                    + "tools as a tools file or an MCP tools/list result lists them");
        }
        return tools;
    }

    private void topField(String name) throws IOException, InputException {
        switch (name) {
            case "version" -> {
                doc.version(false, "version");
                ours = true;
            }
            case "tools" -> {
                tools(ours);
                listed = true;
            }
            case "result" -> {
                // A JSON-RPC response to tools/list: its result holds the list.
                c.expectObject("a tools/list result");
                doc.fields(field -> {
                    if (field.equals("tools")) {
                        tools(false);
                        listed = true;
                    } else {
                        c.skip();
                    }
                });
            }
            case "$schema", "jsonrpc", "id", "nextCursor", "_meta" -> c.skip();
            default -> throw c.unknownField(name, FILE_FIELDS);
        }
    }

    /** Reads the {@code tools} array: our tools' fields strictly, an MCP tool's leniently. */
    private void tools(boolean ours) throws IOException, InputException {
        c.expectArray("a list of tools");
        while (c.next() != JsonToken.END_ARRAY) {
            c.expectObject("a tool");
            String name = null;
            Effect effect = ours ? null : Effect.WRITE;
            boolean idempotent = false;
            String keyArgument = null;
            while (c.next() == JsonToken.FIELD_NAME) {
                String field = c.parser().currentName();
                c.value();
                switch (field) {
                    case "name" -> name = c.optString();
                    case "effect" -> {
                        if (!ours) {
                            c.skip();
                            continue;
                        }
                        effect = c.optEnum(Effect.class);
                    }
                    case "idempotent" -> {
                        if (!ours) {
                            c.skip();
                            continue;
                        }
                        idempotent = Boolean.TRUE.equals(c.optBoolean());
                    }
                    case "key_argument" -> {
                        if (!ours) {
                            c.skip();
                            continue;
                        }
                        keyArgument = c.optString();
                        if (keyArgument != null && keyArgument.isEmpty()) {
                            throw c.error("a key argument needs a name");
                        }
                    }
                    case "annotations" -> {
                        if (ours) {
                            throw c.unknownField(field, TOOL_FIELDS);
                        }
                        Facts f = annotations();
                        effect = f.effect();
                        idempotent = f.idempotent();
                    }
                    default -> {
                        if (ours) {
                            throw c.unknownField(field, TOOL_FIELDS);
                        }
                        c.skip();
                    }
                }
            }
            if (name == null || name.isEmpty()) {
                throw c.error("a tool needs its name");
            }
            if (ours && effect == null) {
                throw c.error("missing required field effect of tool " + name + ": read or write");
            }
            if (tools.put(name, new Facts(effect, idempotent, keyArgument)) != null) {
                throw c.error("tool " + name + " is listed twice");
            }
        }
    }

    /** An MCP tool's annotations: {@code readOnlyHint} true is a read; {@code idempotentHint} true deduplicates. */
    private Facts annotations() throws IOException, InputException {
        if (c.isNull()) {
            return new Facts(Effect.WRITE, false, null);
        }
        c.expectObject("a tool's annotations");
        boolean readOnly = false;
        boolean idempotent = false;
        while (c.next() == JsonToken.FIELD_NAME) {
            String field = c.parser().currentName();
            c.value();
            if (field.equals("readOnlyHint") && c.parser().currentToken().isBoolean()) {
                readOnly = c.parser().getBooleanValue();
            } else if (field.equals("idempotentHint") && c.parser().currentToken().isBoolean()) {
                idempotent = c.parser().getBooleanValue();
            } else {
                c.skip();
            }
        }
        return new Facts(readOnly ? Effect.READ : Effect.WRITE, idempotent, null);
    }
}
