package dev.retryaudit.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.model.Limits;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonCursor#line()} and {@link JsonCursor#column()} read a value's place from the UTF-8
 * parser without making a location: on every token of varied documents (multi-byte text, CR LF,
 * long lines past the parser's buffer, from a stream and from bytes) they give what the parser's
 * {@code currentTokenLocation()} gives.
 */
class JsonCursorPlaceTest {
    private static final String[] TEXTS = {"a", "été", "\u20ac uro", "\uD83D\uDE00 emoji", "tab\\tand \\\"quote\\\"", ""};

    private static String document(Random r) {
        StringBuilder b = new StringBuilder();
        int lines = 1 + r.nextInt(40);
        for (int l = 0; l < lines; l++) {
            b.append("{\"id\": \"").append(TEXTS[r.nextInt(TEXTS.length)]).append(l).append('"');
            int fields = r.nextInt(12);
            for (int f = 0; f < fields; f++) {
                b.append(r.nextBoolean() ? ", " : ",").append('"').append(TEXTS[r.nextInt(TEXTS.length)]).append(f).append("\":");
                switch (r.nextInt(6)) {
                    case 0 -> b.append(r.nextInt(100_000));
                    case 1 -> b.append('"').append(TEXTS[r.nextInt(TEXTS.length)].repeat(1 + r.nextInt(300))).append('"');
                    case 2 -> b.append("[1, \"x\", {\"k\": null}, true]");
                    case 3 -> b.append("-1.5e3");
                    case 4 -> b.append(" \r\n  false");
                    default -> b.append("{\"nested\": [\"").append(TEXTS[r.nextInt(TEXTS.length)]).append("\"]}");
                }
            }
            b.append('}').append(r.nextBoolean() ? "\n" : "\r\n");
        }
        return b.toString();
    }

    @Test
    void everyTokensPlaceIsTheParsersOwn() throws Exception {
        StrictJson json = new StrictJson(Limits.DEFAULTS);
        Random r = new Random(42);
        long tokens = 0;
        for (int round = 0; round < 200; round++) {
            byte[] bytes = document(r).getBytes(StandardCharsets.UTF_8);
            for (boolean stream : new boolean[] {true, false}) {
                try (JsonParser p = stream ? json.parser(new ByteArrayInputStream(bytes)) : json.parser(bytes, 0, bytes.length)) {
                    JsonCursor c = new JsonCursor(p, "t", Limits.DEFAULTS);
                    for (JsonToken t = c.next(); t != null; t = c.next()) {
                        JsonLocation at = p.currentTokenLocation();
                        assertThat(new long[] {c.line(), c.column()}).as("round %d, %s at %s", round, t, at)
                                .containsExactly(JsonCursor.line(at), JsonCursor.column(at));
                        tokens++;
                    }
                }
            }
        }
        assertThat(tokens).isGreaterThan(10_000);
    }
}
