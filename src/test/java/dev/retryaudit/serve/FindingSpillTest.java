package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Blocks kept in a temporary file, read back in their order, and a file that cannot be kept ending the run. */
class FindingSpillTest {
    @TempDir
    Path dir;

    @Test
    void blocksComeBackInTheirOrderAndTheFileGoes() throws IOException {
        FindingSpill spill = new FindingSpill(dir);
        assertThat(files()).as("no file before the first block").isEmpty();
        List<byte[]> added = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            // Empty blocks, and blocks larger than the buffer.
            byte[] block = new byte[i % 7 == 0 ? 0 : i * 331];
            java.util.Arrays.fill(block, (byte) i);
            added.add(block);
            spill.add(block);
        }
        assertThat(files()).singleElement().satisfies(f -> assertThat(f.getFileName().toString())
                .startsWith("retry-audit-findings-").endsWith(".bin"));
        assertThat(spill.bytes()).isEqualTo(added.stream().mapToLong(b -> 4L + b.length).sum());
        List<byte[]> read = new ArrayList<>();
        spill.read(read::add);
        assertThat(read).containsExactlyElementsOf(added);
        assertThat(files()).as("deleted once read back").isEmpty();
        assertThatThrownBy(() -> spill.add(new byte[1])).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void noBlockMakesNoFile() throws IOException {
        FindingSpill spill = new FindingSpill(dir);
        List<byte[]> read = new ArrayList<>();
        spill.read(read::add);
        assertThat(read).isEmpty();
        assertThat(files()).isEmpty();
        assertThatThrownBy(() -> spill.add(new byte[1])).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aClosedSpillLeavesNoFile() throws IOException {
        try (FindingSpill spill = new FindingSpill(dir)) {
            spill.add(new byte[10]);
            assertThat(files()).hasSize(1);
        }
        assertThat(files()).isEmpty();
    }

    @Test
    void aFileThatCannotBeMadeIsTheRunsEndAndItsError() {
        Path missing = dir.resolve("missing");
        FindingSpill spill = new FindingSpill(missing);
        AtomicInteger told = new AtomicInteger();
        spill.onFailure(told::incrementAndGet);
        spill.add(new byte[3]);
        assertThat(told).hasValue(1);
        assertThat(spill.failure()).isNotNull();
        // Later blocks are dropped; the failure is told once.
        spill.add(new byte[3]);
        assertThat(told).hasValue(1);
        assertThatThrownBy(() -> spill.read(block -> { })).isInstanceOf(IOException.class)
                .hasMessage(missing + ": no such directory");
        // An action set after the failure runs at once.
        AtomicInteger late = new AtomicInteger();
        spill.onFailure(late::incrementAndGet);
        assertThat(late).hasValue(1);
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
