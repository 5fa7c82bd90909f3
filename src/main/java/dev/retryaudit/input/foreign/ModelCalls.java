package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Spans of GenAI model calls ({@code gen_ai.operation.name} {@code chat}, {@code text_completion} or
 * {@code generate_content}; OpenInference {@code LLM}) with no HTTP request under them: the call's sends,
 * and so an SDK's own retries of them and the Retry-After they were told, are not in the export. They are
 * counted for a note that names what shows them.
 */
final class ModelCalls {
    private ModelCalls() {
    }

    /** Whether the span in the scratch is a model call's. */
    static boolean is(SpanScratch s) throws InputException {
        String op = s.string(OtlpAttribute.GEN_AI_OPERATION);
        return "chat".equals(op) || "text_completion".equals(op) || "generate_content".equals(op)
                || "LLM".equals(s.string(OtlpAttribute.OPENINFERENCE_KIND));
    }

    /**
     * Notes how many model-call spans among {@code wrappers} have no request under them ({@code sent}: the
     * keys of the contexts of requests sent under a span), at the first; with {@code parts}, counts them there.
     */
    static void note(ReadContext ctx, Collection<List<ForeignSpan>> wrappers, Set<String> sent, NoteParts parts) {
        SpanCount count = new SpanCount(NoteParts.MODEL, 1);
        for (List<ForeignSpan> spans : wrappers) {
            for (ForeignSpan w : spans) {
                if (w.modelCall && !sent.contains(LinkingContexts.sendsKey(w))) {
                    count.add(w);
                }
            }
        }
        count.note(ctx, parts, w -> new String[] {w.spanId, w.name});
    }

    /** The note on {@code count} model-call spans with no request under them, the first {@code spanId}. */
    static String text(long count, String spanId, String name) {
        return count + (count == 1 ? " GenAI model-call span has" : " GenAI model-call spans have") + " no HTTP "
                + "request under them, the first span " + spanId + " (" + name + "): a model call's sends, an SDK's "
                + "own retries of them and the Retry-After they were told cannot be seen; instrument the HTTP client "
                + "(httpx, undici, the Java agent's HTTP clients) to audit them";
    }
}
