package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.LazyText;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.values.RawJson;
import dev.retryaudit.report.JsonParts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The lines of each audited part: each finding's line as the JSON report's fields give it, the part's lines
 * flushed together; the first failing write kept, told at once, and every later finding dropped.
 */
class FindingLinesTest {
    private static Finding finding(int i) {
        return Finding.builder().rule("retry-after/early").severity(Severity.ERROR).operation("t/" + i).attempt(2)
                .tool("GET shop.example").run("t").message("attempt 2 of t/" + i + " came back \u00e9 \uD800 early")
                .evidence(Evidence.of().put("retry_after", "1").put("early_ms", 500L + i)
                        .put("raw", new RawJson("{\"k\":[1,2]}")).putTime("started_at", 1_788_789_720_123L + i))
                .at(new Location("/v1/traces", 0, 1 + i, 1, null)).build();
    }

    private static List<Finding> findings(int from, int to) {
        List<Finding> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(finding(i));
        }
        return out;
    }

    private static String lines(List<Finding> findings) {
        StringBuilder s = new StringBuilder();
        findings.forEach(f -> s.append(JsonParts.line(f)).append('\n'));
        return s.toString();
    }

    /** Bytes kept, and a count of the flushes; fails every write from the {@code failAt}th on (from 1), or never when 0. */
    private static final class Counting extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final int failAt;
        int writes;
        int flushes;

        Counting(int failAt) {
            this.failAt = failAt;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writes++;
            if (failAt > 0 && writes >= failAt) {
                throw new IOException("No space left on device");
            }
            bytes.write(b, off, len);
        }

        @Override
        public void flush() {
            flushes++;
        }
    }

    @Test
    void eachPartIsWrittenAsItsLinesAndFlushedOnce() {
        Counting out = new Counting(0);
        FindingLines lines = new FindingLines(out);
        List<Finding> first = findings(0, 3);
        List<Finding> second = findings(3, 300);
        lines.accept(first);
        assertThat(out.flushes).isEqualTo(1);
        lines.accept(List.of());
        lines.accept(second);
        lines.accept(List.of(finding(300)));
        assertThat(out.flushes).isEqualTo(3);
        assertThat(out.bytes.toString(StandardCharsets.UTF_8)).isEqualTo(lines(findings(0, 301)));
        assertThat(lines.failure()).isNull();
    }

    @Test
    void theFirstFailingWriteIsKeptToldAtOnceAndLaterFindingsAreDropped() {
        Counting out = new Counting(2);
        FindingLines lines = new FindingLines(out);
        AtomicInteger told = new AtomicInteger();
        lines.onFailure(told::incrementAndGet);
        // the generator's buffer of 8,000 bytes goes out in writes: a part of 300 lines takes several
        lines.accept(findings(0, 300));
        assertThat(lines.failure()).hasMessage("No space left on device");
        assertThat(told).hasValue(1);
        int writes = out.writes;
        lines.accept(findings(300, 310));
        lines.accept(List.of(finding(310)));
        assertThat(out.writes).isEqualTo(writes);
        assertThat(told).hasValue(1);
        assertThat(lines(findings(0, 300))).startsWith(out.bytes.toString(StandardCharsets.UTF_8));
        AtomicInteger late = new AtomicInteger();
        lines.onFailure(late::incrementAndGet);
        assertThat(late).hasValue(1);
    }

    @Test
    void findingsWrittenNowhereAreNotRendered() {
        LazyText unread = () -> {
            throw new AssertionError("the message was built");
        };
        FindingLines none = FindingLines.none();
        Finding f = Finding.builder().rule("retry-after/early").severity(Severity.ERROR).message(unread)
                .evidence(Evidence.of()).at(new Location("/v1/traces", 0, 1, 1, null)).build();
        none.accept(List.of(f));
        none.accept(List.of(f));
        assertThat(none.failure()).isNull();
    }
}
