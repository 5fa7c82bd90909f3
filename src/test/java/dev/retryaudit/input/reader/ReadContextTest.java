package dev.retryaudit.input.reader;

import dev.retryaudit.json.StrictJson;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Limits;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** The input notes a reader makes: in source order, at most {@link ReadContext#MAX_NOTES}, the rest counted. */
class ReadContextTest {
    private static ReadContext context() {
        return new ReadContext("t.json", 0, new ByteArrayInputStream(new byte[0]), new StrictJson(Limits.DEFAULTS),
                Limits.DEFAULTS, op -> { });
    }

    @Test
    void notesComeInSourceOrderWithTheWholeSourceFirst() {
        ReadContext ctx = context();
        ctx.note(9, 2, "later");
        ctx.note(3, 7, "earlier");
        ctx.note(0, 0, "whole source");
        assertThat(ctx.notes()).extracting(InputNote::message).containsExactly("whole source", "earlier", "later");
        assertThat(ctx.notes().get(1)).isEqualTo(new InputNote("t.json", 3, 7, "earlier"));
    }

    @Test
    void notesPastTheLimitAreCountedInALastNote() {
        ReadContext ctx = context();
        for (int i = 1; i <= ReadContext.MAX_NOTES + 5; i++) {
            ctx.note(i, 1, "note " + i);
        }
        assertThat(ctx.notes()).hasSize(ReadContext.MAX_NOTES + 1);
        assertThat(ctx.notes().get(ReadContext.MAX_NOTES).message()).isEqualTo("5 more notes like these are left out");
    }
}
