package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.cli.CliRunner;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTML report as a browser sees it: headless Chromium loads each page from a file, with its logging on
 * stderr, and prints the DOM it built. A page passes when the browser logged no console message (a policy
 * violation, a blocked load or a script error would be one), every finding's message is in the DOM, and no
 * string from a hostile input became an element or an attribute. Chromium comes from the distribution
 * ({@code .ci/run} installs it); without it the tests are skipped, except on CI where they fail.
 */
@Tag("browser")
class HtmlReportBrowserTest {
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    static final Path SCREENSHOT = Path.of("target/html-report.png");

    @TempDir
    Path tmp;

    /** What one Chromium run printed. */
    record Run(String dom, List<String> console) {
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"examples/checkout-spans.jsonl", "src/test/resources/retry-trace/retry-trace-seconds-early.json",
            "examples/checkout-otlp.json", "examples/checkout.har", "examples/traces/retry-wrote-twice.jsonl",
            "examples/traces/gaps.jsonl", "src/test/resources/report/inputs/timeline.json"})
    void theExamplesLoadCleanWithEveryFinding(String input) throws IOException {
        Path page = html(input);
        Run run = chromium("--dump-dom", page.toUri().toString());
        assertThat(run.console()).as("console messages of " + input).isEmpty();
        Document dom = Jsoup.parse(run.dom());
        List<String> expected = messages(input);
        assertThat(dom.select("#by-rule .msg").eachText()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(dom.select("#by-operation .msg").eachText()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(dom.select("title").first().text()).startsWith("retry-audit report: ");
    }

    @Test
    void hostileStringsNeverBecomeMarkup() throws IOException {
        String input = "src/test/resources/report/inputs/hostile.json";
        Path page = html(input);
        Run run = chromium("--dump-dom", page.toUri().toString());
        assertThat(run.console()).isEmpty();
        Document dom = Jsoup.parse(run.dom());
        Document sent = Jsoup.parse(Files.readString(page, StandardCharsets.UTF_8));
        assertThat(dom.getAllElements().stream().map(Element::tagName).collect(Collectors.toSet()))
                .isSubsetOf(HtmlReportWriterTest.OURS);
        assertThat(dom.getAllElements()).hasSameSizeAs(sent.getAllElements());
        assertThat(dom.getAllElements().stream().flatMap(e -> e.attributes().asList().stream())
                .map(a -> a.getKey()).filter(k -> k.startsWith("on") || k.equals("src") || k.equals("href"))).isEmpty();
        assertThat(dom.select("#by-rule .msg").eachText()).containsExactlyInAnyOrderElementsOf(messages(input));
        assertThat(dom.select("#by-operation summary code").eachText()).contains("<script>alert(1)</script>",
                "\"><img src=x onerror=alert(2)>", "</title><svg onload=alert(3)>",
                "]]><!-- <a href=\"javascript:alert(5)\">x</a> -->", "<style>body{display:none}</style>");
    }

    @Test
    void theConsoleCheckSeesAPolicyViolation() throws IOException {
        String good = Files.readString(html("examples/checkout-spans.jsonl"), StandardCharsets.UTF_8);
        Path bad = tmp.resolve("bad.html");
        Files.writeString(bad, good.replace("<body>", "<body><p style=\"color: red\">styled</p>"));
        Run run = chromium("--dump-dom", bad.toUri().toString());
        assertThat(run.console()).anySatisfy(line -> assertThat(line).contains("Content Security Policy"));
    }

    @Test
    void aScreenshotOfTheCheckoutExample() throws IOException {
        Path page = html("examples/checkout-spans.jsonl");
        Files.createDirectories(SCREENSHOT.getParent());
        Files.deleteIfExists(SCREENSHOT);
        Run run = chromium("--hide-scrollbars", "--window-size=1100,900",
                "--screenshot=" + SCREENSHOT.toAbsolutePath(), page.toUri().toString());
        assertThat(run.console()).isEmpty();
        BufferedImage shot = ImageIO.read(SCREENSHOT.toFile());
        assertThat(shot).as("a PNG at " + SCREENSHOT).isNotNull();
        assertThat(shot.getWidth()).isEqualTo(1100);
        assertThat(shot.getHeight()).isEqualTo(900);
        // The checkout example fails: the verdict badge is drawn in the error colour.
        assertThat(widestBar(shot, 0xb3261e).width()).as("the failed verdict badge").isGreaterThan(20);
        // Its charge timed out and was sent again: the timeline draws a long timeout bar, then a success bar
        // that starts after the timeout ended.
        Bar timeout = widestBar(shot, 0xd4a72c);
        Bar success = widestBar(shot, 0x2da44e);
        assertThat(timeout.width()).as("the timeout bar").isGreaterThan(200);
        assertThat(success.width()).as("the success bar").isGreaterThan(5);
        assertThat(success.y()).as("the retry's row is below the first attempt's").isGreaterThan(timeout.y());
        assertThat(success.x()).as("the retry starts after the timeout ended").isGreaterThan(timeout.x() + timeout.width());
    }

    /** A horizontal run of one colour in a screenshot: where it starts and how wide it is. */
    record Bar(int x, int y, int width) {
    }

    /** The widest horizontal run of pixels of exactly {@code rgb}, the lowest such run on a tie. */
    private static Bar widestBar(BufferedImage image, int rgb) {
        Bar widest = new Bar(0, 0, 0);
        for (int y = 0; y < image.getHeight(); y++) {
            int start = -1;
            for (int x = 0; x <= image.getWidth(); x++) {
                boolean match = x < image.getWidth() && (image.getRGB(x, y) & 0xffffff) == rgb;
                if (match && start < 0) {
                    start = x;
                } else if (!match && start >= 0) {
                    if (x - start >= widest.width()) {
                        widest = new Bar(start, y, x - start);
                    }
                    start = -1;
                }
            }
        }
        return widest;
    }

    /** The audit of {@code input} as an HTML file. */
    private Path html(String input) {
        Path out = tmp.resolve(Path.of(input).getFileName() + ".html");
        CliRunner.Result r = CliRunner.run("audit", "--format", "html", "--output", out.toString(), input);
        assertThat(r.exit()).as(r.err()).isIn(0, 2);
        return out;
    }

    /** The messages of the findings of {@code input}, from the JSON report. */
    private static List<String> messages(String input) throws IOException {
        JsonNode report = new ObjectMapper().readTree(CliRunner.run("audit", input).out());
        List<String> out = new ArrayList<>();
        report.get("findings").forEach(f -> out.add(f.get("message").asText()));
        assertThat(out).as("findings of " + input).isNotEmpty();
        return out;
    }

    private Run chromium(String... args) throws IOException {
        if (!Files.isExecutable(CHROMIUM)) {
            if (System.getenv("CI") != null) {
                fail(CHROMIUM + " is missing: .ci/run installs it");
            }
            Assumptions.abort(CHROMIUM + " is missing: install the distribution's chromium package to run this test");
        }
        Path profile = Files.createTempDirectory(tmp, "profile-");
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"));
        cmd.addAll(List.of(args));
        Path out = tmp.resolve("chromium.out");
        Path err = tmp.resolve("chromium.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("chromium did not finish in 120 s: " + Files.readString(err));
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            fail("interrupted");
        }
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        List<String> console = Files.readAllLines(err, StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(":CONSOLE") || l.contains("Content Security Policy")).toList();
        return new Run(Files.readString(out, StandardCharsets.UTF_8), console);
    }
}
