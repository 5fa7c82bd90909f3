package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gRPC exports through the command line, in both shapes producers write (the semantic conventions'
 * client and server spans; grpc-java's own Sent/Attempt/Recv spans), each with the exact findings and
 * notes the mapping should give: the fixtures are under {@code src/test/resources/grpc/}.
 */
class GrpcExportsCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DIR = Path.of("src/test/resources/grpc");

    private static JsonNode audit(String fixture, int exit, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("audit", DIR.resolve(fixture).toString()));
        args.addAll(List.of(more));
        CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).as(r.out()).isEqualTo(exit);
        return JSON.readTree(r.out());
    }

    /** Rule, operation and attempt of every finding, in report order. */
    private static List<String> findings(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.get("findings").forEach(f -> out.add(f.get("rule").asText() + " " + f.get("operation").asText() + " "
                + f.get("attempt").asText()));
        return out;
    }

    private static List<String> notes(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.at("/inputs/0/notes").forEach(n -> out.add(n.get("message").asText()));
        return out;
    }

    @Test
    void anApplicationThatResendsAWriteAfterDeadlineExceededIsATimeoutReplay() throws IOException {
        JsonNode report = audit("agent-resend-after-deadline.json", 2);
        assertThat(findings(report)).containsExactly(
                "timeout-replay/unreconciled 5b8efff798038103d269b633813fc60c/a1c0ffee00000002 2");
        JsonNode f = report.at("/findings/0");
        assertThat(f.get("tool").asText()).isEqualTo("shop.v1.Orders/PlaceOrder");
        assertThat(f.at("/evidence/prior_outcome").asText()).isEqualTo("timeout");
        assertThat(f.at("/evidence/prior_grpc_status").asText()).isEqualTo("DEADLINE_EXCEEDED");
        assertThat(f.at("/evidence/grouped_by").asText())
                .isEqualTo("inferred: same parent and gRPC method after a failure within 10 s");
        assertThat(notes(report)).isEmpty();
    }

    @Test
    void theSameResendInGrpcJavasOwnSpansIsATimeoutReplayToo() throws IOException {
        JsonNode report = audit("a72-resend-after-deadline.json", 2);
        assertThat(findings(report)).containsExactly(
                "timeout-replay/unreconciled 6d5c4b3a29180f0e6d5c4b3a29180f0e/9900000000000002 2");
        assertThat(report.at("/findings/0/tool").asText()).isEqualTo("shop.v1.Payments/Charge");
    }

    @Test
    void aMethodThePolicyDeclaresAReadMayBeResentAfterATimeout() throws IOException {
        Path policy = tmp.resolve("policy.json");
        Files.writeString(policy, "{\"grpc\": {\"reads\": [\"shop.v1.Orders/*\"], \"writes\": [\"*/Charge\"]}}");
        JsonNode report = audit("agent-resend-after-deadline.json", 0, "--policy", policy.toString());
        assertThat(findings(report)).isEmpty();
        // a method both lists name writes: writes win
        Files.writeString(policy, "{\"grpc\": {\"reads\": [\"shop.v1.Orders/*\"], \"writes\": [\"*/PlaceOrder\"]}}");
        assertThat(findings(audit("agent-resend-after-deadline.json", 2, "--policy", policy.toString()))).hasSize(1);
    }

    @TempDir
    Path tmp;

    @Test
    void aServiceConfigRetryOnUnavailableWithTheBackoffInsideTheAttemptSpanIsClean() throws IOException {
        JsonNode report = audit("a72-service-config-retry.json", 0);
        assertThat(findings(report)).isEmpty();
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(report.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(notes(report)).isEmpty();
    }

    @Test
    void theSendTimeOfAnAttemptIsItsOutboundMessageEvent() throws IOException {
        // the second attempt span opens 0 ms after the first failed, its message goes out 221 ms later:
        // with a minimum backoff of 200 ms, read from the span's start it would be an immediate retry
        Path policy = tmp.resolve("policy.json");
        Files.writeString(policy, "{\"min_backoff_ms\": 200}");
        assertThat(findings(audit("a72-service-config-retry.json", 0, "--policy", policy.toString()))).isEmpty();
        Files.writeString(policy, "{\"min_backoff_ms\": 250}");
        assertThat(findings(audit("a72-service-config-retry.json", 0, "--policy", policy.toString())))
                .containsExactly("budget/no-backoff 0af7651916cd43dd8448eb211c80319c/c3c0ffee00000002 2");
    }

    @Test
    void aTransparentRetryIsFoldedIntoTheAttemptItReplacesWithANote() throws IOException {
        JsonNode report = audit("a72-transparent-retry.json", 0);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(notes(report)).containsExactly("1 transparent retry (transparent-retry true) folded into the attempt "
                + "before: gRPC makes one when the earlier attempt never reached the server application, so it is not "
                + "counted as a retry");
    }

    @Test
    void serverSpansUnderOneClientSpanAreTheAttemptsTheClientDidNotRecord() throws IOException {
        JsonNode report = audit("agent-server-spans-show-retries.json", 0);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(3);
        assertThat(notes(report)).containsExactly("client span bb00000000000001 (shop.v1.Cart/AddItem) records one call, "
                + "but 3 server spans under it show 3 attempts: the client's retries (a service config's retryPolicy) are "
                + "read from the server's spans, on the server's clock");
    }

    @Test
    void serverSpansAloneAreReadWithTheCurrentConventionsAndANote() throws IOException {
        JsonNode report = audit("server-only-no-backoff.json", 0);
        assertThat(findings(report)).containsExactly(
                "budget/no-backoff 2a3b4c5d6e7f80912a3b4c5d6e7f8091/dd00000000000001 2");
        assertThat(report.at("/findings/0/message").asText()).contains("failed with gRPC UNAVAILABLE");
        assertThat(notes(report)).containsExactly("3 server spans of shop.v1.Cart/AddItem (parent span "
                + "ee00000000000009) have no client span in the export: the attempts of the call are read from the "
                + "server's spans alone, on the server's clock");
    }

    @Test
    void aCallSentAgainAfterAPushbackThatSaysDoNotRetryIsAFinding() throws IOException {
        JsonNode report = audit("agent-pushback-stop-ignored.json", 2);
        assertThat(findings(report)).containsExactly(
                "retry-after/do-not-retry 3c4d5e6f7081920a3c4d5e6f7081920a/ff00000000000002 2");
        assertThat(report.at("/findings/0/evidence/retry_pushback_ms").asText()).isEqualTo("-1");
    }

    @Test
    void spansOfAnRpcSystemTheAuditDoesNotReadAreCountedInANoteInEveryFormat() throws IOException {
        JsonNode report = audit("unknown-rpc-system.json", 0, "--allow-empty");
        assertThat(report.at("/summary/operations").asInt()).isZero();
        String note = "3 spans of RPC system \"carrier-pigeon\" (rpc.system) were not used: the audit reads the "
                + "attempts of HTTP requests, gRPC calls and GenAI tool calls, and cannot tell the retries of another "
                + "protocol";
        assertThat(notes(report)).containsExactly(
                "nothing in this input was audited: it holds 3 spans, none an attempt: 3 spans of other protocols", note);
        for (String format : List.of("text", "sarif", "github", "html", "markdown")) {
            CliRunner.Result r = CliRunner.run("audit", "--allow-empty", "--format", format,
                    DIR.resolve("unknown-rpc-system.json").toString());
            assertThat(r.exit()).as(format).isZero();
            String shown = format.equals("html") ? note.replace("\"", "&quot;") : format.equals("sarif")
                    ? note.replace("\"", "\\\"") : format.equals("markdown")
                    ? note.replaceAll("([\\\\`*_\\[\\]()<>&|#!~@:^$])", "\\\\$1") : note;
            assertThat(r.out() + r.err()).as(format).contains(shown);
        }
    }

    @Test
    void zipkinTagsOfTheSemanticConventionsAreReadAsGrpcToo() throws IOException {
        JsonNode report = audit("zipkin-resend-after-deadline.json", 2);
        assertThat(findings(report)).containsExactly(
                "timeout-replay/unreconciled 5b8efff798038103d269b633813fc60c/a1c0ffee00000002 2");
        assertThat(notes(report)).containsExactly("the export cannot show the retries of 2 gRPC calls: a client span "
                + "of the semantic conventions records one span over all attempts of its call, and no server span of the "
                + "call is in the export, so retries a service config's retryPolicy made under it are not in the export");
    }

    @Test
    void messagingAndDatabaseSpansAreCountedPerProtocol() throws IOException {
        JsonNode report = audit("zipkin-messaging-and-db.json", 0, "--allow-empty");
        assertThat(notes(report)).containsExactly(
                "nothing in this input was audited: it holds 3 spans, none an attempt: 3 spans of other protocols",
                "2 spans of messaging system \"kafka\" (messaging.system) were not used: the audit reads the attempts of "
                        + "HTTP requests, gRPC calls and GenAI tool calls, and cannot tell the retries of another protocol",
                "1 span of database system \"postgresql\" (db.system) was not used: the audit reads the attempts of "
                        + "HTTP requests, gRPC calls and GenAI tool calls, and cannot tell the retries of another protocol");
    }

    @Test
    void whereBothInstrumentationsRecordACallGrpcJavasAttemptsAreReadOnce() throws IOException {
        JsonNode report = audit("both-instrumentations.json", 0);
        assertThat(report.at("/summary/operations").asInt()).isEqualTo(1);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(notes(report)).isEmpty();
    }

    @Test
    void grpcJavasSpansInZipkinLowerCaseAndTheirErrorTagAreReadToo() throws IOException {
        JsonNode report = audit("zipkin-a72-resend-after-deadline.json", 2);
        assertThat(findings(report)).containsExactly(
                "timeout-replay/unreconciled 6d5c4b3a29180f0e6d5c4b3a29180f0e/9900000000000002 2");
        assertThat(report.at("/findings/0/tool").asText()).isEqualTo("shop.v1.payments/charge");
        assertThat(report.at("/findings/0/evidence/prior_grpc_status").asText()).isEqualTo("DEADLINE_EXCEEDED");
    }
}
