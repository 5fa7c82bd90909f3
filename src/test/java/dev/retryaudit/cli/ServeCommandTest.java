package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code retry-audit serve} on the command line: its help, its usage errors, and a run that ends by --until-idle. */
class ServeCommandTest {
    @Test
    void helpNamesEveryOptionAndTheExitCodes() {
        CliRunner.Result r = CliRunner.run("serve", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("--listen", "--output", "--format", "--until-idle", "--idle", "--max-held-spans",
                "--policy", "--enable", "--disable", "--fail-on", "--limit-bytes", "Exit codes:", "--grace",
                "--read-timeout", "--max-connections", "--temp-dir", "Append each finding", "(default: 20 MiB)")
                .doesNotContain("Write the report to FILE", "default: 1 GiB");
        assertThat(CliRunner.run("--help").out()).contains("serve");
    }

    @Test
    void badValuesAreUsageErrors() {
        for (String[] args : new String[][] {{"--listen", "nohost"}, {"--listen", "127.0.0.1:70000"},
                {"--idle", "ten"}, {"--until-idle", "5 minutes"}, {"--max-held-spans", "0"},
                {"--enable", "no/such-rule"}, {"--listen", "no.such.host.invalid:4318"}}) {
            String[] cmd = new String[args.length + 1];
            cmd[0] = "serve";
            System.arraycopy(args, 0, cmd, 1, args.length);
            CliRunner.Result r = CliRunner.run(cmd);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(64);
            assertThat(r.err()).as(String.join(" ", args)).startsWith("retry-audit: error: ")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void anAddressInUseIsAUsageError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:" + taken.getLocalPort());
            assertThat(r.exit()).isEqualTo(64);
            assertThat(r.err()).contains("cannot listen on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void untilIdleEndsTheRunWithTheReportAndTheVerdict(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Path lines = dir.resolve("findings.jsonl");
        Files.writeString(lines, "{\"an\":\"earlier line\"}\n");
        CompletableFuture<CliRunner.Result> run = CompletableFuture.supplyAsync(() -> CliRunner.run("serve", "--listen",
                "127.0.0.1:" + port, "--until-idle", "1500ms", "--idle", "100ms", "--output", lines.toString(),
                "--format", "json"));
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> answer = null;
        for (int i = 0; i < 400 && answer == null && !run.isDone(); i++) {
            try {
                answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/traces"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofFile(Path.of("src/test/resources/input/otlp/agent-checkout.json")))
                        .build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.net.ConnectException e) {
                Thread.sleep(50);
            }
        }
        assertThat(answer).as(() -> run.isDone() ? run.join().toString() : "still running").isNotNull();
        assertThat(answer.statusCode()).isEqualTo(200);
        CliRunner.Result r = run.get(60, TimeUnit.SECONDS);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("retry-audit: listening on http://127.0.0.1:" + port);
        assertThat(r.out()).contains("\"passed\": false", "\"source\": \"/v1/traces\"");
        assertThat(Files.readAllLines(lines)).hasSize(3).first().isEqualTo("{\"an\":\"earlier line\"}");
    }

    @Test
    void aRunThatReceivedNoSpanIsRejectedNotClean() throws Exception {
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--until-idle", "200ms", "--first-span-within", "200ms", "--format", "json");
        assertThat(r.exit()).as(r.err()).isEqualTo(65);
        assertThat(r.err()).contains("retry-audit: listening on http://127.0.0.1:",
                "/v1/traces:1:1: error: no span was received in the run: no export reached POST /v1/traces or "
                        + "POST /api/v2/spans, or each was refused; check the exporters' endpoint and give "
                        + "--until-idle more than their batch delay\n");
        assertThat(r.out()).contains("\"error\": {", "\"code\": 65", "\"source\": \"/v1/traces\"")
                .doesNotContain("\"passed\"");

        CliRunner.Result text = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--until-idle", "200ms", "--first-span-within", "200ms");
        assertThat(text.exit()).isEqualTo(65);
        assertThat(text.out()).isEmpty();
        assertThat(text.err()).contains("/v1/traces:1:1: error: no span was received in the run: ").doesNotContain("Exception");
    }

    private static final String CLEAN = Path.of("src/test/resources/input/otlp/protobuf-json.json").toAbsolutePath().toString();
    private static final String BAD = Path.of("src/test/resources/input/otlp/agent-checkout.json").toAbsolutePath().toString();

    /** A shell step that posts an OTLP/JSON file to the endpoint the wrapped command was given. */
    private static String post(String file) {
        return "curl -sS -f -o /dev/null -H 'Content-Type: application/json' --data-binary @'" + file
                + "' \"$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT\"";
    }

    @Test
    void aQuietTestRunThatRetriesBadlyLaterFailsTheGate() {
        // Quiet for longer than the grace time between a clean export and a bad one: only the command's end ends the run.
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "500ms", "--idle", "100ms",
                "--", "sh", "-c", post(CLEAN) + " && sleep 3 && " + post(BAD));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.out().lines().filter(l -> l.startsWith("{\"rule\":"))).hasSize(2);
    }

    @Test
    void aCommandWhoseFirstExportComesLatePassesTheGate() {
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "500ms", "--", "sh", "-c",
                "sleep 3 && " + post(CLEAN));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEmpty();
    }

    @Test
    void theCommandGetsTheExporterSettingsAndItsOutputGoesToStderr() {
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "100ms", "--", "sh", "-c",
                "env | grep -E '^(OTEL|ELASTIC_OTEL)_' | sort; " + post(CLEAN));
        assertThat(r.exit()).as(r.err()).isZero();
        String port = r.err().replaceFirst("(?s)^retry-audit: listening on http://127\\.0\\.0\\.1:(\\d+).*", "$1");
        assertThat(r.err()).contains("OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:" + port + "\n",
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:" + port + "/v1/traces\n",
                "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf\n", "OTEL_TRACES_EXPORTER=otlp\n",
                "OTEL_METRICS_EXPORTER=none\n", "OTEL_LOGS_EXPORTER=none\n",
                "OTEL_INSTRUMENTATION_HTTP_CLIENT_CAPTURE_REQUEST_HEADERS=idempotency-key\n",
                "OTEL_INSTRUMENTATION_HTTP_CLIENT_CAPTURE_RESPONSE_HEADERS=retry-after,retry-after-ms,date\n",
                "OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_RESPONSE=retry-after,retry-after-ms,date\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aFailedTestRunExitsWithItsOwnCode() {
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "100ms", "--", "sh", "-c",
                post(CLEAN) + " && exit 3");
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        CliRunner.Result none = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "100ms", "--", "false");
        assertThat(none.exit()).as(none.err()).isEqualTo(1);
        CliRunner.Result clean = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "100ms", "--", "true");
        assertThat(clean.exit()).as("a run that sent nothing never passes").isEqualTo(65);
        CliRunner.Result missing = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--", "/no/such/command");
        assertThat(missing.exit()).isEqualTo(66);
        assertThat(missing.err()).contains("retry-audit: error: cannot run /no/such/command: ");
        assertThat(CliRunner.run("serve", "--until-idle", "1s", "--", "true").exit()).isEqualTo(64);
    }

    @Test
    void untilIdleCountsFromTheFirstSpan() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        CompletableFuture<CliRunner.Result> run = CompletableFuture.supplyAsync(() -> CliRunner.run("serve", "--listen",
                "127.0.0.1:" + port, "--until-idle", "500ms"));
        // Later than --until-idle after the start: the run must still be waiting for the first span.
        Thread.sleep(2000);
        assertThat(run).isNotDone();
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + port + "/v1/traces")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofFile(Path.of(CLEAN))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(run.get(60, TimeUnit.SECONDS).exit()).isZero();
    }

    @Test
    void aFindingThatCannotBeWrittenEndsTheRunAtOnceWith74(@TempDir Path dir) {
        Path later = dir.resolve("later");
        // The command would go on for a minute; the first finding that cannot be written ends the run and the command.
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--idle", "100ms", "--output",
                "/dev/full", "--", "sh", "-c", post(BAD) + " && sleep 60 && touch '" + later + "'");
        assertThat(r.exit()).as(r.err()).isEqualTo(74);
        assertThat(r.err()).contains("retry-audit: error: cannot write the findings to /dev/full: ");
        assertThat(later).doesNotExist();
    }

    @Test
    void findingsThatCannotBeKeptForTheReportEndTheRunAtOnceWith74(@TempDir Path dir) throws Exception {
        Path later = dir.resolve("later");
        Path gone = Files.createDirectory(dir.resolve("gone"));
        // The directory is there when the run starts and gone when the first finding is to be kept.
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--idle", "100ms", "--format", "json",
                "--temp-dir", gone.toString(), "--", "sh", "-c", "rmdir '" + gone + "' && " + post(BAD)
                        + " && sleep 60 && touch '" + later + "'");
        assertThat(r.exit()).as(r.err()).isEqualTo(74);
        assertThat(r.err()).contains("retry-audit: error: cannot keep the findings for the report in " + gone
                + ": no such directory; no report is written");
        assertThat(r.out()).isEmpty();
        assertThat(later).doesNotExist();
    }

    @Test
    void aReportsFindingsAreKeptInTheTempDirAndDeletedAtTheEnd(@TempDir Path dir) throws Exception {
        Path temp = Files.createDirectory(dir.resolve("temp"));
        Path listing = dir.resolve("listing");
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--idle", "100ms", "--format", "json",
                "--temp-dir", temp.toString(), "--", "sh", "-c", post(BAD) + " && for i in $(seq 300); do [ -n \"$(ls '"
                        + temp + "')\" ] && break; sleep 0.1; done; ls '" + temp + "' > '" + listing + "'");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        // Once the first finding was handed on (its context closed after --idle and its Retry-After), the file was
        // there while the command ran; after the report, nothing is left.
        assertThat(Files.readString(listing)).containsPattern("^retry-audit-findings-[0-9]+\\.bin\n$");
        assertThat(r.out()).contains("\"rule\"");
        try (java.util.stream.Stream<Path> left = Files.list(temp)) {
            assertThat(left.toList()).isEmpty();
        }
    }

    @Test
    void aTempDirThatCannotBeUsedIsAUsageError(@TempDir Path dir) {
        Path missing = dir.resolve("missing");
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--format", "json", "--temp-dir",
                missing.toString(), "--", "true");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).startsWith("retry-audit: error: invalid value for option '--temp-dir': " + missing
                + " is not a directory this process can write to");
        // Without --format nothing is kept, and the directory is not looked at.
        assertThat(CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "100ms", "--temp-dir",
                missing.toString(), "--", "true").exit()).isEqualTo(65);
    }

    @Test
    void theDefaultTempDirIsTmpdirElseTheJvms() {
        assertThat(ServeCommand.defaultTempDir(java.util.Map.of("TMPDIR", "/run/tmp"), "/tmp")).isEqualTo(Path.of("/run/tmp"));
        assertThat(ServeCommand.defaultTempDir(java.util.Map.of("TMPDIR", " "), "/tmp")).isEqualTo(Path.of("/tmp"));
        assertThat(ServeCommand.defaultTempDir(java.util.Map.of(), "/var/tmp")).isEqualTo(Path.of("/var/tmp"));
    }

    @Test
    void anAddressOtherHostsReachIsWarnedOf() throws Exception {
        // Not bound: the warning is the address's, whichever process listens on it.
        assertThat(ServeCommand.exposure(new java.net.InetSocketAddress("0.0.0.0", 4318))).startsWith(
                "retry-audit: warning: 0.0.0.0:4318 is reachable from other hosts (every interface): the receiver has no "
                        + "authentication and no TLS");
        assertThat(ServeCommand.exposure(new java.net.InetSocketAddress(InetAddress.getByName("192.0.2.1"), 4318)))
                .startsWith("retry-audit: warning: 192.0.2.1:4318 is reachable from other hosts: ");
        assertThat(ServeCommand.exposure(new java.net.InetSocketAddress("127.0.0.1", 4318))).isNull();
        assertThat(ServeCommand.exposure(new java.net.InetSocketAddress("::1", 4318))).isNull();
        CliRunner.Result r = CliRunner.run("serve", "--listen", "127.0.0.1:0", "--grace", "100ms", "--", "true");
        assertThat(r.err()).doesNotContain("warning");
    }
}
