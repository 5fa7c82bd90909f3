package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.Scenario;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Probe runs are bounded in number and in time, and a run that is gone no longer listens. */
class ProbeRunsTest {
    static final Scenario SCENARIO = Scenario.of(429, 1, 1, HeaderFormat.parse("seconds"), 5);

    @Test
    void anExpiredRunIsStoppedAndForgotten() throws Exception {
        try (ProbeRuns runs = new ProbeRuns(2, Duration.ZERO)) {
            ProbeRuns.Run run = runs.create(SCENARIO, 100);
            String url = run.server().url();
            assertThatThrownBy(() -> runs.get(run.id())).isInstanceOf(ToolError.class)
                    .hasMessage("no open probe run " + run.id() + ": it was finished, it expired (0 s after it was "
                            + "created), or it never existed");
            assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.discarding())).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void atMostMaxRunsAreOpen() throws ToolError, IOException, InterruptedException {
        try (ProbeRuns runs = new ProbeRuns(1, Duration.ofHours(1))) {
            ProbeRuns.Run run = runs.create(SCENARIO, 100);
            assertThatThrownBy(() -> runs.create(SCENARIO, 100))
                    .hasMessageStartingWith("1 probe run is open, the most this server keeps (--max-runs)");
            HttpResponse<Void> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(run.server().url()))
                    .build(), HttpResponse.BodyHandlers.discarding());
            assertThat(r.statusCode()).isEqualTo(429);
            assertThat(runs.finish(run.id()).server().trace().attempts()).hasSize(1);
            assertThat(runs.create(SCENARIO, 100).id()).isNotEqualTo(run.id());
        }
    }
}
