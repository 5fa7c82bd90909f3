package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;

/**
 * The spans of a tool call in each agent convention the audit reads, in one place: OpenTelemetry
 * GenAI {@code execute_tool} spans ({@code gen_ai.tool.name}, {@code gen_ai.tool.call.id},
 * {@code gen_ai.tool.call.arguments}; LangSmith's export writes the arguments in {@code gen_ai.prompt}),
 * the MCP conventions' {@code tools/call} spans ({@code mcp.method.name}, {@code gen_ai.tool.name},
 * {@code jsonrpc.request.id}), OpenInference {@code TOOL} spans ({@code tool.name}, {@code input.value}),
 * the Vercel AI SDK's {@code ai.toolCall} spans ({@code ai.toolCall.name}, {@code ai.toolCall.id},
 * {@code ai.toolCall.args}) and pydantic-ai's {@code running tool} spans ({@code tool_arguments}). A
 * retry counter a framework records on the tool span ({@code gen_ai.tool.call.attempt},
 * {@code retry.attempt}: 1 first; {@code gen_ai.request.retry_count}: 0 first) numbers its attempts.
 */
final class ToolSpans {
    private static final String MCP_CALL = "tools/call ";

    private ToolSpans() {
    }

    /** Whether the span in the scratch is a tool call's. */
    static boolean is(SpanScratch s) throws InputException {
        if ("execute_tool".equals(s.string(OtlpAttribute.GEN_AI_OPERATION))
                || "tools/call".equals(s.string(OtlpAttribute.MCP_METHOD))
                || "TOOL".equals(s.string(OtlpAttribute.OPENINFERENCE_KIND))
                || "ai.toolCall".equals(s.string(OtlpAttribute.AI_SDK_OPERATION))) {
            return true;
        }
        OtlpAttribute.Match name = s.keys[OtlpAttribute.TOOL_NAME.ordinal()];
        return name != null && (name.key().equals("ai.toolCall.name")
                || name.key().equals("gen_ai.tool.name") && "running tool".equals(s.name));
    }

    /** Fills the tool's name, call id, arguments and retry counter into {@code span}. */
    static void fill(ForeignSpan span, SpanScratch s, ReadContext ctx) throws InputException {
        span.toolName = s.strings.share(emptyToNull(s.string(OtlpAttribute.TOOL_NAME)));
        int call = s.name == null ? -1 : s.name.indexOf(MCP_CALL);
        if (span.toolName == null && call >= 0) {
            // The MCP conventions name the span "tools/call {tool}"; the MCP Python SDK "MCP send tools/call {tool}".
            span.toolName = s.strings.share(emptyToNull(s.name.substring(call + MCP_CALL.length()).strip()));
        }
        span.toolCallId = emptyToNull(s.hint(OtlpAttribute.TOOL_CALL_ID, ctx));
        span.toolArguments = ToolArguments.canonical(s.hint(OtlpAttribute.TOOL_ARGUMENTS, ctx));
        span.hop.toolArguments = span.toolArguments;
        String attempt = s.hint(OtlpAttribute.TOOL_ATTEMPT, ctx);
        Integer n = Headers.retryCount(attempt);
        if (n != null && span.hop.resendCount == null) {
            String key = s.keys[OtlpAttribute.TOOL_ATTEMPT.ordinal()].key();
            boolean fromOne = !key.endsWith("retry_count");
            if (!fromOne || n >= 1) {
                span.hop.resendCount = fromOne ? n - 1 : n;
                span.resendSource = key;
            }
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
