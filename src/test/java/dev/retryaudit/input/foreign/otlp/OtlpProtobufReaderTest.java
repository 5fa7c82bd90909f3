package dev.retryaudit.input.foreign.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.FormatDetector;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The collector file exporter's protobuf files read into the same operations and findings as the OTLP/JSON of the same spans. */
class OtlpProtobufReaderTest {
    private static final RetryAudit AUDIT = RetryAudit.defaults();

    /** What a finding is, but for where it stands: the framing moves every span to its message's line. */
    static List<String> identities(AuditResult r) {
        List<String> out = new ArrayList<>();
        for (Finding f : r.findings()) {
            out.add(f.rule() + " " + f.severity() + " " + f.operation() + " " + f.attempt() + " " + f.fingerprint() + " "
                    + f.message());
        }
        out.sort(null);
        return out;
    }

    @Test
    void everyOtlpJsonFixtureFramedAsProtobufGivesTheSameFindings() throws IOException {
        int compared = 0;
        for (Path file : OtlpProtoFixtures.jsonFiles()) {
            AuditResult json;
            List<ExportTraceServiceRequest> exports;
            try {
                json = AUDIT.audit(AuditInput.stream(Files.newInputStream(file), "spans"));
                exports = OtlpProtoFixtures.exports(file);
            } catch (RetryAuditException | RuntimeException | IOException e) {
                continue;
            }
            byte[] framed = OtlpProtoFixtures.framed(exports);
            AuditResult proto;
            try {
                proto = AUDIT.audit(AuditInput.stream(new ByteArrayInputStream(framed), "spans"));
            } catch (RetryAuditException e) {
                throw new AssertionError(file + ": " + e.getMessage(), e);
            }
            assertThat(identities(proto)).as(file.toString()).isEqualTo(identities(json));
            assertThat(proto.inputs().get(0).operations()).as(file.toString()).isEqualTo(json.inputs().get(0).operations());
            assertThat(proto.inputs().get(0).format()).isEqualTo("otlp");
            compared++;
        }
        assertThat(compared).isGreaterThan(30);
    }

    @Test
    void framedProtobufIsDetectedFromItsBytes() throws IOException {
        byte[] framed = OtlpProtoFixtures.framed(OtlpProtoFixtures.exports(Path.of("examples").resolve(example())));
        FormatDetector.Guess g = FormatDetector.detect("traces.bin", framed, framed.length, new StrictJson(Limits.DEFAULTS));
        assertThat(g.format()).isEqualTo(InputFormat.OTLP);
        assertThat(OtlpProtobuf.isFramed("{\"resourceSpans\":[]}".getBytes(), 0, 20)).isFalse();
        assertThat(OtlpProtobuf.isFramed(new byte[] {0, 0, 0, 0}, 0, 4)).isTrue();
    }

    @Test
    void idsAsBytesBecomeTheHexIdsOfOtlpJson() throws Exception {
        Path file = Path.of("examples").resolve(example());
        byte[] framed = OtlpProtoFixtures.framed(OtlpProtoFixtures.exports(file));
        List<String> proto = AUDIT.read(AuditInput.stream(new ByteArrayInputStream(framed), "s")).stream().map(o -> o.id()).sorted().toList();
        List<String> json = AUDIT.read(AuditInput.stream(Files.newInputStream(file), "s")).stream().map(o -> o.id()).sorted().toList();
        assertThat(proto).isEqualTo(json).isNotEmpty();
    }

    @Test
    void aCutMessageIsRejectedAtItsNumber() throws IOException {
        List<ExportTraceServiceRequest> exports = OtlpProtoFixtures.exports(Path.of("examples").resolve(example()));
        List<ExportTraceServiceRequest> two = List.of(exports.get(0), exports.get(0));
        byte[] framed = OtlpProtoFixtures.framed(two);
        byte[] cut = Arrays.copyOf(framed, framed.length - 3);
        assertThatThrownBy(() -> AUDIT.audit(AuditInput.stream(new ByteArrayInputStream(cut), "t.bin")))
                .isInstanceOf(RetryAuditException.class)
                .hasMessageContaining("t.bin:2:1: error: $: the input ends within message 2");
        byte[] header = Arrays.copyOf(framed, framed.length / 2 + 2);
        header = Arrays.copyOf(framed, (framed.length / 2) + 2);
        byte[] one = OtlpProtoFixtures.framed(List.of(exports.get(0)));
        byte[] shortHeader = Arrays.copyOf(framed, one.length + 2);
        assertThatThrownBy(() -> AUDIT.audit(AuditInput.stream(new ByteArrayInputStream(shortHeader), "t.bin")))
                .hasMessageContaining("t.bin:2:1: error: $: the input ends within the length of message 2");
    }

    @Test
    void bytesThatAreNoExportAreMalformedProtobuf() {
        // A frame of 3 bytes: resource_spans, said to be 5 bytes long, but 1 follows.
        byte[] bad = {0, 0, 0, 3, 0x0A, 0x05, 0x0A};
        assertThatThrownBy(() -> AUDIT.audit(AuditInput.stream(new ByteArrayInputStream(bad), "t.bin")))
                .hasMessageStartingWith("t.bin:1:1: error: $: malformed protobuf: ");
    }

    @Test
    void aZstdCompressedMessageSaysWhatToDo() {
        byte[] zstd = {0, 0, 0, 5, 0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0};
        assertThatThrownBy(() -> AUDIT.audit(AuditInput.stream(new ByteArrayInputStream(zstd), "t.bin")))
                .isInstanceOf(RetryAuditException.class);
    }

    private static String example() throws IOException {
        try (var files = Files.list(Path.of("examples"))) {
            return files.filter(p -> p.toString().endsWith(".json")).filter(p -> {
                try {
                    return Files.readString(p).contains("resourceSpans");
                } catch (IOException e) {
                    return false;
                }
            }).findFirst().orElseThrow().getFileName().toString();
        }
    }
}
