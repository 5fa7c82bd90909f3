package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Outcome;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * HTTP requests to an MCP server's Streamable HTTP endpoint ({@code POST .../mcp}). Sent under a tool
 * span (an agent framework's tool backed by an MCP server), they are that tool call's transport: the
 * tool span is the attempt, and a request that got no answer (the client's timeout aborted it) says the
 * tool call's outcome is unknown. In a trace that holds no tool span the export holds the transport
 * alone, so which tool each request called, and whether a tool was called again, cannot be read: they
 * are audited as plain requests, and counted for a note that names what to enable.
 */
final class McpTransport {
    private McpTransport() {
    }

    /** Whether a request went to an MCP endpoint: a URL whose path ends in {@code /mcp}. */
    static boolean is(ForeignSpan s) {
        if (s.url == null) {
            return false;
        }
        String u = s.url.toLowerCase(Locale.ROOT);
        int end = u.length();
        for (char stop : new char[] {'?', '#'}) {
            int at = u.indexOf(stop);
            end = at >= 0 ? Math.min(end, at) : end;
        }
        String path = u.substring(0, end);
        return path.endsWith("/mcp") || path.endsWith("/mcp/");
    }

    /**
     * Takes the requests sent under the spans of a tool call ({@code keys}: their contexts in
     * {@code http}) as the tool call's transport when they all went to an MCP endpoint, and says whether
     * they did. When they are, a
     * tool span that failed over a request of unknown outcome (no answer: a timeout or a lost
     * connection) takes that outcome: the server may have run the tool.
     */
    static boolean asTransport(List<ForeignSpan> tools, List<String> keys, Map<String, List<ForeignSpan>> http) {
        if (keys.isEmpty()) {
            return false;
        }
        for (String key : keys) {
            for (ForeignSpan s : http.get(key)) {
                if (!is(s)) {
                    return false;
                }
            }
        }
        for (ForeignSpan t : tools) {
            String key = LinkingContexts.sendsKey(t);
            List<ForeignSpan> sent = keys.contains(key) ? http.get(key) : null;
            if (sent == null || t.hop.outcome == null || t.hop.outcome == Outcome.SUCCESS) {
                continue;
            }
            for (ForeignSpan s : sent) {
                if (s.hop.outcome == Outcome.TIMEOUT || s.hop.outcome == Outcome.CONNECTION_ERROR) {
                    t.hop.outcome = s.hop.outcome;
                }
            }
        }
        return true;
    }

    /**
     * Notes how many requests went to an MCP endpoint in a trace with no tool span ({@code tools}: the
     * traces that hold one), at the first of them; nothing when none did. With {@code parts}, counts them
     * there instead.
     */
    static void note(ReadContext ctx, Collection<List<ForeignSpan>> requests, Set<String> tools, NoteParts parts) {
        SpanCount count = new SpanCount(NoteParts.MCP, 1);
        for (List<ForeignSpan> spans : requests) {
            for (ForeignSpan s : spans) {
                if (is(s) && !tools.contains(s.traceId)) {
                    count.add(s);
                }
            }
        }
        count.note(ctx, parts, SpanCount::request);
    }

    /** The note on {@code count} requests to an MCP endpoint, the first {@code spanId}. */
    static String text(long count, String spanId, String method, String url) {
        return count + (count == 1 ? " HTTP request" : " HTTP requests") + " to an MCP endpoint carry no tool "
                + "name, the first span " + spanId + " (" + method + " " + url + "): the export holds the MCP "
                + "transport only, so a tool called again cannot be seen; they are audited as plain requests. "
                + "Enable an instrumentation that writes MCP spans (tools/call, mcp.method.name, gen_ai.tool.name)";
    }
}
