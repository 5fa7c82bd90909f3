package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.Compressed;
import dev.retryaudit.input.LargeDocuments;
import dev.retryaudit.input.TraceGenerator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gzip and zstd inputs, recognised by their magic bytes in files and on stdin, give the report of the
 * decompressed text, locations included; limits count the decompressed bytes; a cut or corrupt stream is
 * one line and exit 65.
 */
class CompressedInputsTest {
    private static final List<String> FORMATS = List.of("json", "text", "sarif", "github", "html");
    private static final String CHUNK_BYTES = "retryaudit.chunkBytes";

    @TempDir
    static Path dir;

    private static byte[] spans;

    @BeforeAll
    static void generate() {
        // About 750 KB in chunks of 64 KiB: several of the chunks that the spans reader parses on several cores.
        System.setProperty(CHUNK_BYTES, Integer.toString(1 << 16));
        spans = TraceGenerator.generate(21, 5_000).spans().getBytes(StandardCharsets.UTF_8);
    }

    @AfterAll
    static void restore() {
        System.clearProperty(CHUNK_BYTES);
    }

    private static Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    /** The run of {@code args} with {@code content} in {@code file}. */
    private static CliRunner.Result with(Path file, byte[] content, String... args) throws IOException {
        Files.write(file, content);
        String[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = file.toString();
        return CliRunner.run(all);
    }

    @Test
    void compressedFilesGiveThePlainFilesReportInEveryFormat() throws Exception {
        // One name for every content, so that the reports can be equal byte for byte: the magic bytes decide.
        Path file = dir.resolve("x.jsonl");
        List<byte[]> compressed = List.of(Compressed.gzip(spans), Compressed.zstd(spans),
                Compressed.pieces(spans, 7, false), Compressed.pieces(spans, 7, true));
        for (String format : FORMATS) {
            CliRunner.Result expected = with(file, spans, "audit", "--format", format);
            assertThat(expected.exit()).as(expected.err()).isEqualTo(2);
            for (int i = 0; i < compressed.size(); i++) {
                assertThat(with(file, compressed.get(i), "audit", "--format", format)).as(i + " " + format)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void theNameWithoutTheCompressionsExtensionCountsForDetection() throws Exception {
        // One line with no key that names a format: JSON Lines of spans by the .jsonl extension only.
        byte[] line = "{\"type\": \"attempt\", \"idempotency_key\": \"k\"}\n".getBytes(StandardCharsets.UTF_8);
        CliRunner.Result plain = CliRunner.run("audit", write("one.jsonl", line).toString());
        assertThat(plain.err()).doesNotContain("cannot tell the input format");
        for (String name : List.of("one.jsonl.gz", "one.jsonl.GZ", "one.jsonl.zst")) {
            byte[] content = name.endsWith("zst") ? Compressed.zstd(line) : Compressed.gzip(line);
            Path file = write(name, content);
            CliRunner.Result r = CliRunner.run("audit", file.toString());
            assertThat(r.exit()).as(r.err()).isEqualTo(plain.exit());
            assertThat(r.err()).isEqualTo(plain.err().replace(dir.resolve("one.jsonl").toString(), file.toString()));
        }
        CliRunner.Result plainJson = CliRunner.run("audit", write("one.json", line).toString());
        assertThat(plainJson.err()).contains("cannot tell the input format");
        CliRunner.Result gzJson = CliRunner.run("audit", write("one.json.gz", Compressed.gzip(line)).toString());
        assertThat(gzJson.err()).contains("cannot tell the input format");
    }

    @Test
    void stdinCompressedOrDecompressedGivesTheSameReport() {
        for (String format : FORMATS) {
            CliRunner.Result expected = CliRunner.run(new ByteArrayInputStream(spans), "audit", "--format", format, "-");
            assertThat(expected.exit()).as(expected.err()).isEqualTo(2);
            for (byte[] stdin : List.of(Compressed.gzip(spans), Compressed.zstd(spans))) {
                CliRunner.Result r = CliRunner.run(trickle(stdin), "audit", "--format", format, "-");
                assertThat(r).as(format).isEqualTo(expected);
            }
        }
    }

    @Test
    void errorsAndLimitsPlaceTheDecompressedText() throws Exception {
        String text = new String(spans, StandardCharsets.UTF_8);
        int cut = text.indexOf('\n', text.length() / 2);
        byte[] broken = (text.substring(0, cut + 1) + "{\"attempt_id\": oops}\n" + text.substring(cut + 1))
                .getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve("broken.jsonl");
        CliRunner.Result expected = with(file, broken, "audit");
        assertThat(expected.exit()).isEqualTo(65);
        assertThat(expected.err()).contains(file + ":" + (text.substring(0, cut).lines().count() + 1) + ":");
        assertThat(with(file, Compressed.gzip(broken), "audit")).isEqualTo(expected);
        assertThat(with(file, Compressed.zstd(broken), "audit")).isEqualTo(expected);

        int limit = spans.length / 3;
        CliRunner.Result over = with(file, Compressed.zstd(broken), "audit", "--limit-bytes", Integer.toString(limit));
        assertThat(over.exit()).isEqualTo(65);
        assertThat(over.err().lines()).singleElement().asString().contains("input exceeds the byte limit: more than "
                + limit + " bytes read (the decompressed size counts)");
        CliRunner.Result plainOver = with(file, broken, "audit", "--limit-bytes", Integer.toString(limit));
        assertThat(over.err()).isEqualTo(plainOver.err().replace("bytes read", "bytes read (the decompressed size counts)"));
    }

    @Test
    void aBombStopsAtTheByteLimit() throws Exception {
        // An operations document opened, then a member of 10 MiB of white space 1,000 times: 10 GiB when
        // decompressed, about 10 MB compressed.
        byte[] member = whiteSpaceMember(10 << 20);
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        bomb.writeBytes(Compressed.gzip("{\"version\": 1, \"operations\": [".getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < 1_000; i++) {
            bomb.writeBytes(member);
        }
        assertThat(bomb.size()).isLessThan(20 << 20);
        Path file = write("bomb.json.gz", bomb.toByteArray());
        CliRunner.Result r = CliRunner.run("audit", "--limit-bytes", "50000000", file.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err().lines()).singleElement().asString().startsWith(file + ":1:")
                .contains("more than 50000000 bytes read (the decompressed size counts)");
        CliRunner.Result stdin = CliRunner.run(new ByteArrayInputStream(bomb.toByteArray()), "audit",
                "--limit-bytes", "50000000", "-");
        assertThat(stdin.exit()).isEqualTo(65);
        assertThat(stdin.err()).contains("(the decompressed size counts)");
    }

    /** A gzip member of {@code size} spaces, compressed as tightly as deflate can. */
    private static byte[] whiteSpaceMember(int size) {
        ByteArrayOutputStream deflated = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        byte[] spaces = new byte[1 << 20];
        Arrays.fill(spaces, (byte) ' ');
        try (DeflaterOutputStream out = new DeflaterOutputStream(deflated, deflater, 1 << 16)) {
            for (int i = 0; i < size / spaces.length; i++) {
                out.write(spaces);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        deflater.end();
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        for (int i = 0; i < size / spaces.length; i++) {
            crc.update(spaces);
        }
        ByteArrayOutputStream member = new ByteArrayOutputStream();
        member.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, (byte) 0xff});
        member.writeBytes(deflated.toByteArray());
        member.writeBytes(littleEndian(crc.getValue()));
        member.writeBytes(littleEndian(size));
        return member.toByteArray();
    }

    private static byte[] littleEndian(long v) {
        return new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >> 24)};
    }

    @ParameterizedTest
    @ValueSource(strings = {"gz", "zst"})
    void aCutOrCorruptStreamIsOneLineAndExit65(String kind) throws Exception {
        byte[] whole = kind.equals("gz") ? Compressed.gzip(spans) : Compressed.zstd(spans);
        Path cut = write("cut.jsonl." + kind, Arrays.copyOf(whole, whole.length / 2));
        CliRunner.Result r = CliRunner.run("audit", cut.toString());
        assertThat(r.exit()).isEqualTo(65);
        String name = kind.equals("gz") ? "gzip" : "zstd";
        assertThat(r.err().lines()).singleElement().asString().startsWith(cut + ":")
                .contains("error: truncated " + name + " data: the compressed input ends at byte " + whole.length / 2)
                .doesNotContain("Exception");
        assertThat(r.out()).contains("\"code\": 65");

        byte[] flipped = whole.clone();
        for (int i = whole.length / 3; i < whole.length / 3 + 64; i++) {
            flipped[i] ^= 0x5a;
        }
        Path corrupt = write("corrupt.jsonl." + kind, flipped);
        CliRunner.Result c = CliRunner.run("audit", corrupt.toString());
        assertThat(c.exit()).isEqualTo(65);
        assertThat(c.err().lines()).singleElement().asString().startsWith(corrupt + ":")
                .containsPattern("error: corrupt " + name + " data at compressed byte \\d+")
                .doesNotContain("Exception");

        Path headOnly = write("head.jsonl." + kind, Arrays.copyOf(whole, 6));
        CliRunner.Result h = CliRunner.run("audit", headOnly.toString());
        assertThat(h.exit()).isEqualTo(65);
        assertThat(h.err()).startsWith(headOnly + ":1:1: error: truncated " + name + " data");
    }

    @Test
    void aZstdWindowTheDecoderDoesNotReadIsSaidSo() throws Exception {
        Assumptions.assumeTrue(new java.io.File("/usr/bin/zstd").canExecute(), "the zstd command is not installed");
        // Read from a pipe, zstd --long=27 declares its whole 128 MiB window in the frame header.
        Process p = new ProcessBuilder("/usr/bin/zstd", "-q", "--long=27", "-c").start();
        p.getOutputStream().write(spans);
        p.getOutputStream().close();
        byte[] zst = p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        CliRunner.Result r = CliRunner.run("audit", write("long.jsonl.zst", zst).toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err().lines()).singleElement().asString()
                .containsPattern("error: unsupported zstd data at compressed byte \\d+: a frame needs a window larger "
                        + "than 8 MiB \\(as zstd --long and --ultra write\\), which this decoder does not read; "
                        + "decompress it first, as in zstd -dc FILE \\| retry-audit audit -$");
    }

    @Test
    void damageFoundAfterTheTextWasRejectedIsWhatIsReported() throws Exception {
        // Text that no format fits, in a member whose CRC-32 is wrong: the damage, not the text, is the error.
        byte[] gz = Compressed.gzip("not json at all\n".repeat(1_000).getBytes(StandardCharsets.UTF_8));
        gz[gz.length - 8] ^= 1;
        Path file = write("damaged.gz", gz);
        CliRunner.Result r = CliRunner.run("audit", file.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(file + ":1001:1: error: corrupt gzip data at compressed byte " + (gz.length - 8)
                + ": the CRC-32 of a gzip member does not match its data\n");
    }

    @Test
    void bytesAfterTheLastGzipMemberAreAnError() throws Exception {
        byte[] whole = Compressed.gzip(spans);
        byte[] trailing = Arrays.copyOf(whole, whole.length + 3);
        Path file = write("trailing.jsonl.gz", trailing);
        CliRunner.Result r = CliRunner.run("audit", file.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err().lines()).singleElement().asString()
                .contains("corrupt gzip data at compressed byte " + whole.length
                        + ": bytes after the last gzip member that are not one");
    }

    @Test
    void aGzipHoldingAHarOrAnOtlpDocumentIsDetectedByWhatItHolds() throws Exception {
        for (Path example : List.of(Path.of("examples/checkout.har"), Path.of("examples/checkout-otlp.json"))) {
            byte[] text = Files.readAllBytes(example);
            Path file = dir.resolve(example.getFileName() + ".gz");
            CliRunner.Result expected = with(file, text, "audit");
            assertThat(expected.exit()).as(expected.err()).isEqualTo(2);
            assertThat(with(file, Compressed.gzip(text), "audit")).isEqualTo(expected);
            assertThat(CliRunner.run(new ByteArrayInputStream(Compressed.gzip(text)), "audit", "-"))
                    .isEqualTo(CliRunner.run(new ByteArrayInputStream(text), "audit", "-"));
        }
        byte[] big = LargeDocuments.of(LargeDocuments.Shape.JAEGER_V3_RESULT, 1 << 20);
        CliRunner.Result v3 = CliRunner.run(new ByteArrayInputStream(Compressed.zstd(big)), "audit", "-");
        assertThat(v3).isEqualTo(CliRunner.run(new ByteArrayInputStream(big), "audit", "--input-format", "otlp", "-"));
    }

    /** A stream that hands out at most 1,000 bytes a read, as a pipe may. */
    private static InputStream trickle(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1000));
            }
        };
    }
}
