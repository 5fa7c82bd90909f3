package dev.retryaudit.api.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The input-wide rejections an engine makes itself read as the library's own rejections of the same input. */
class InputRejectionTest {
    private static final String OK = "{\"operation_id\":\"%s\",\"tool\":\"t\",\"attempt_id\":1}\n";

    @TempDir
    Path dir;

    private RetryAuditException libraryRejection(Limits limits, String... contents) throws IOException {
        Path[] files = new Path[contents.length];
        for (int i = 0; i < contents.length; i++) {
            files[i] = Files.writeString(dir.resolve("in-" + i + ".jsonl"), contents[i]);
        }
        try {
            RetryAudit.of(AuditSettings.builder().limits(limits).inputFormat(dev.retryaudit.model.InputFormat.SPANS).build())
                    .audit(AuditInput.files(List.of(files)));
        } catch (RetryAuditException e) {
            return e;
        }
        throw new AssertionError("the input was accepted");
    }

    @Test
    void duplicateIdIsTheLibrarysRejection() throws IOException {
        RetryAuditException lib = libraryRejection(Limits.DEFAULTS, OK.formatted("a"), OK.formatted("b") + OK.formatted("a"));
        Location second = new Location(dir.resolve("in-1.jsonl").toString(), 1, 2, 1, null);
        assertThat(InputRejection.duplicateId(second).error().getMessage()).isEqualTo(lib.getMessage());
    }

    @Test
    void overOperationsAndOverBytesNameTheirLimit() throws IOException {
        Limits d = Limits.DEFAULTS;
        Limits two = new Limits(d.bytes(), 2, d.attemptsPerOperation(), d.stringLength(), d.depth());
        RetryAuditException lib = libraryRejection(two, OK.formatted("a") + OK.formatted("b") + OK.formatted("c"));
        Location third = new Location(dir.resolve("in-0.jsonl").toString(), 0, 3, 1, null);
        RetryAuditException ours = InputRejection.overOperations(two, third, true, false).error();
        assertThat(ours.getMessage()).isEqualTo(lib.getMessage());
        assertThat(ours.limit()).isEqualTo(Limit.OPERATIONS);

        Limits bytes = new Limits(10, d.operations(), d.attemptsPerOperation(), d.stringLength(), d.depth());
        RetryAuditException over = InputRejection.overBytes(0, "in.jsonl", 1, 11, bytes).error();
        assertThat(over.getMessage()).startsWith("in.jsonl:1:11: error: $: input exceeds the byte limit: more than 10 bytes read");
        assertThat(over.limit()).isEqualTo(Limit.BYTES);
    }

    @Test
    void unreadableSourceKeepsTheCause() {
        RetryAuditException e = InputRejection.unreadable("gone.jsonl", new IOException("No such file"));
        assertThat(e.getMessage()).startsWith("gone.jsonl: error: ").contains("cannot be read: No such file");
    }
}
