package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * HTTP requests to an MCP server's Streamable HTTP endpoint ({@code POST .../mcp}) in a trace that holds
 * no tool span: the export holds the transport alone, so which tool each request
 * called, and whether a tool was called again, cannot be read. They are audited as plain requests, and
 * counted for a note that names what to enable.
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
     * Notes how many requests went to an MCP endpoint in a trace with no tool span ({@code tools}: the
     * traces that hold one), at the first of them; nothing when none did. With {@code parts}, counts them
     * there instead.
     */
    static void note(ReadContext ctx, Collection<List<ForeignSpan>> requests, Set<String> tools, NoteParts parts) {
        long count = 0;
        ForeignSpan first = null;
        for (List<ForeignSpan> spans : requests) {
            for (ForeignSpan s : spans) {
                if (is(s) && !tools.contains(s.traceId)) {
                    count++;
                    first = first == null || s.order < first.order ? s : first;
                }
            }
        }
        if (first == null) {
            return;
        }
        if (parts != null) {
            parts.count(ctx, NoteParts.MCP, "", first, new long[] {count}, first.spanId, first.method, first.url);
            return;
        }
        ctx.note(first.line, first.column, text(count, first.spanId, first.method, first.url));
    }

    /** The note on {@code count} requests to an MCP endpoint, the first {@code spanId}. */
    static String text(long count, String spanId, String method, String url) {
        return count + (count == 1 ? " HTTP request" : " HTTP requests") + " to an MCP endpoint carry no tool "
                + "name, the first span " + spanId + " (" + method + " " + url + "): the export holds the MCP "
                + "transport only, so a tool called again cannot be seen; they are audited as plain requests. "
                + "Enable an instrumentation that writes MCP spans (tools/call, mcp.method.name, gen_ai.tool.name)";
    }
}
