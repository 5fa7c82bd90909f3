package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Outcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Splits the tool spans of one trace (one agent run) into the calls they are attempts of, in the order
 * they started. A tool span joins the call of an earlier span of the same tool that has its call id
 * (a framework's own retry keeps the id), or that its retry counter continues; else, when its arguments
 * were recorded, the latest call of the same tool with the same canonical arguments whose last attempt
 * failed, timed out or was aborted: the model or the framework called the tool again, and whatever the
 * new call id says, it is the same side effect sent again. A call after a success of the same arguments
 * is a new call. A tool span that records neither a call id nor its arguments joins the call of the same
 * tool under the same parent span. A tool span under a tool span of the same tool (an MCP server's span
 * under its client's, one call instrumented twice) is a layer of that call, not an attempt.
 */
final class ToolCalls {
    /** One tool call being linked: its spans and why they were joined. */
    static final class Call {
        final List<ForeignSpan> spans = new ArrayList<>(2);
        String groupedBy;

        ForeignSpan last() {
            return spans.get(spans.size() - 1);
        }
    }

    private ToolCalls() {
    }

    /** The calls of one trace's tool spans; {@code spans} is sorted by start on the way. */
    static List<Call> split(List<ForeignSpan> spans, ReadContext ctx) {
        spans.sort(RetryLinker.BY_START);
        Set<String> ids = new HashSet<>();
        for (ForeignSpan s : spans) {
            ids.add(s.spanId + '\0' + Objects.requireNonNullElse(s.toolName, ""));
        }
        List<Call> calls = new ArrayList<>();
        int unrecorded = 0;
        ForeignSpan firstUnrecorded = null;
        for (ForeignSpan s : spans) {
            if (ids.contains(s.parentSpanId + '\0' + Objects.requireNonNullElse(s.toolName, ""))) {
                continue;
            }
            if (s.toolArguments == null && s.toolCallId != null) {
                unrecorded++;
                firstUnrecorded = firstUnrecorded == null ? s : firstUnrecorded;
            }
            Call call = null;
            String reason = null;
            for (int i = calls.size() - 1; i >= 0 && call == null; i--) {
                Call c = calls.get(i);
                ForeignSpan last = c.last();
                if (!Objects.equals(last.toolName, s.toolName)) {
                    continue;
                }
                if (s.toolCallId != null && s.toolCallId.equals(last.toolCallId)) {
                    call = c;
                    reason = "tool_call_id";
                } else if (s.resends() > 0 && last.resends() < s.resends()
                        && (s.toolArguments == null || s.toolArguments.equals(last.toolArguments))) {
                    call = c;
                    reason = RequestChains.counter(s);
                } else if (s.toolArguments != null && s.toolArguments.equals(last.toolArguments)
                        && failed(last) && (s.toolCallId == null || !s.toolCallId.equals(last.toolCallId))) {
                    call = c;
                    reason = "tool_arguments";
                } else if (s.toolArguments == null && s.toolCallId == null && last.toolCallId == null
                        && s.parentSpanId.equals(last.parentSpanId)) {
                    call = c;
                    reason = "same parent and tool name";
                }
            }
            if (call == null) {
                call = new Call();
                calls.add(call);
            } else if (call.groupedBy == null) {
                call.groupedBy = reason;
            } else if (!call.groupedBy.contains(reason)) {
                call.groupedBy += "; " + reason;
            }
            call.spans.add(s);
        }
        if (unrecorded > 0 && repeated(spans)) {
            ctx.note(firstUnrecorded.line, firstUnrecorded.column, text(unrecorded, firstUnrecorded.spanId,
                    firstUnrecorded.toolName));
        }
        return calls;
    }

    /** Whether a tool span's call did not succeed: it failed, timed out, was aborted, or nothing says how it ended. */
    static boolean failed(ForeignSpan s) {
        return s.hop.outcome != Outcome.SUCCESS;
    }

    /** Whether a tool is called more than once among the spans: only then can a re-call go unseen. */
    private static boolean repeated(List<ForeignSpan> spans) {
        Set<String> names = new HashSet<>();
        for (ForeignSpan s : spans) {
            if (s.toolArguments == null && !names.add(Objects.requireNonNullElse(s.toolName, ""))) {
                return true;
            }
        }
        return false;
    }

    /** The note on {@code count} tool spans with a call id but no recorded arguments, the first {@code spanId}. */
    static String text(long count, String spanId, String tool) {
        return count + (count == 1 ? " tool span records" : " tool spans record") + " a call id but no arguments, "
                + "the first span " + spanId + " (tool " + tool + "): a tool called again with a new call id "
                + "cannot be told from a new call, so re-calls of it are read as new operations; record the "
                + "arguments (gen_ai.tool.call.arguments) to audit them";
    }
}
