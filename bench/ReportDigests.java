import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * The digest of every report of every input named (files, or directories walked in name order): one line per
 * input and format, {@code SHA-256 EXIT FORMAT FILE}, over stdout and stderr of {@code audit FILE --format
 * FORMAT}, run in this JVM through the jar's tool provider. Two jars give the same lines when their reports
 * are byte-identical. Inputs larger than 50 MB are audited in JSON only.
 */
public final class ReportDigests {
    private static final List<String> FORMATS = List.of("json", "text", "sarif", "github", "html");
    private static final long BIG = 50L << 20;

    public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
        ToolProvider tool = ToolProvider.findFirst("retry-audit").orElseThrow(() -> new IllegalStateException(
                "no retry-audit tool provider on the class path"));
        List<Path> inputs = new ArrayList<>();
        for (String a : args) {
            try (Stream<Path> files = Files.walk(Path.of(a))) {
                files.filter(Files::isRegularFile).filter(ReportDigests::isInput).sorted().forEach(inputs::add);
            }
        }
        PrintStream out = System.out;
        for (Path in : inputs) {
            for (String format : Files.size(in) > BIG ? List.of("json") : FORMATS) {
                ByteArrayOutputStream stdout = new ByteArrayOutputStream();
                ByteArrayOutputStream stderr = new ByteArrayOutputStream();
                int exit;
                try (PrintWriter o = new PrintWriter(stdout, true, StandardCharsets.UTF_8);
                        PrintWriter e = new PrintWriter(stderr, true, StandardCharsets.UTF_8)) {
                    exit = tool.run(o, e, "audit", in.toString(), "--format", format);
                }
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                sha.update(stdout.toByteArray());
                sha.update((byte) 0);
                sha.update(stderr.toByteArray());
                out.println(HexFormat.of().formatHex(sha.digest()) + " " + exit + " " + format + " " + in);
            }
        }
    }

    private static boolean isInput(Path p) {
        String name = p.getFileName().toString();
        return !name.equals("verdicts.json") && !name.endsWith(".md") && !name.endsWith(".yml");
    }
}
