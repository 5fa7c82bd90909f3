package dev.retryaudit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.text.Escaping;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code retry-audit mcp}: a Model Context Protocol server on stdio, on the official MCP Java SDK, with the tools
 * {@code audit_trace}, {@code list_rules}, {@code explain_rule}, {@code create_probe_run}, {@code read_probe_trace}
 * and {@code finish_probe_run}. Every failure of a call, a bad argument or a bug alike, is that call's tool error;
 * the server serves until the client closes its stdin. This is the only class the {@code mcp} command loads, so
 * the SDK's classes are loaded by it alone.
 */
public final class RetryAuditMcp {
    private RetryAuditMcp() {
    }

    /**
     * What the server is and may do: its name and version, the directories it may read, and the bounds of the
     * probe runs.
     */
    public record Settings(String name, String version, List<Path> allowedDirs, int maxRuns,
            Duration runTtl, Duration readTimeout) {
        public Settings {
            allowedDirs = List.copyOf(allowedDirs);
        }
    }

    /** The longest message the server reads, in bytes (the SDK's own bound); a longer one is dropped. */
    public static final int MAX_MESSAGE = 16 * 1024 * 1024;

    /** How long requests still running when the client closes stdin get to finish before their reads are stopped. */
    static final Duration STOP_GRACE = Duration.ofSeconds(5);

    /** How long a call waits for a file under --allow-dir to open; a regular file opens at once, a FIFO does not. */
    static final Duration OPEN_WAIT = Duration.ofSeconds(1);

    /**
     * Serves one client on {@code in}/{@code out} until it closes {@code in}; returns the exit code. What the
     * client should know but cannot be told in the protocol (a dropped message) goes to {@code err}.
     */
    public static int serve(Settings settings, InputStream in, OutputStream out, PrintWriter err)
            throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(1);
        ObjectMapper json = new ObjectMapper();
        McpJsonMapper mapper = new JacksonMcpJsonMapper(json);
        Outbox outbox = new Outbox(out);
        MessageCheck check = new MessageCheck(json.getFactory(), MAX_MESSAGE, outbox, line -> {
            err.println(settings.name() + ": mcp: " + line);
            err.flush();
        });
        ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "probe-run-sweeper");
            t.setDaemon(true);
            return t;
        });
        AllowedDirs dirs;
        try {
            dirs = new AllowedDirs(settings.allowedDirs(), OPEN_WAIT);
        } catch (IOException e) {
            err.println(settings.name() + ": error: cannot open an --allow-dir directory: "
                    + Escaping.controls(String.valueOf(e.getMessage())));
            err.flush();
            return 66;
        }
        try (dirs; Reads reads = new Reads(settings.readTimeout());
                ProbeRuns runs = new ProbeRuns(settings.maxRuns(), settings.runTtl())) {
            AuditTool audit = new AuditTool(dirs, reads, json);
            sweeper.scheduleWithFixedDelay(runs::sweep, 1, 1, TimeUnit.SECONDS);
            ProbeTools probe = new ProbeTools(runs, audit, json);
            Runnable ended = () -> {
                // The transport drops every answer once it sees the end of its input: let what was asked finish first.
                try {
                    if (!outbox.await(check.handedOn(), System.nanoTime() + STOP_GRACE.toNanos())) {
                        reads.stopAll();
                        outbox.await(check.handedOn(), System.nanoTime() + OPEN_WAIT.toNanos());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                closed.countDown();
            };
            InputStream messages = new MessageLines(new BufferedInputStream(in, 1 << 16), MAX_MESSAGE, check, ended);
            McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(mapper, messages, outbox, MAX_MESSAGE))
                    .serverInfo(settings.name(), settings.version())
                    .jsonMapper(mapper)
                    // The tools check their own arguments, with the messages the command line gives.
                    .validateToolInputs(false)
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                    .instructions("Audit traces of HTTP attempts and tool calls for unsafe retries (audit_trace), "
                            + "read what each rule catches (list_rules, explain_rule), and test an HTTP client against a "
                            + "local Retry-After fixture (create_probe_run, read_probe_trace, finish_probe_run).")
                    .tools(
                            tool(mapper, "audit_trace", "Audit a trace (inline, or a file under --allow-dir) for unsafe "
                                    + "retries; returns the JSON report and its verdict.", AuditTool.schema(), audit::call),
                            tool(mapper, "list_rules", "List every rule: id, family, default severity, summary.",
                                    RuleTools.LIST_SCHEMA, RuleTools::list),
                            tool(mapper, "explain_rule", "A rule's full documentation (markdown), or a family's rules.",
                                    RuleTools.EXPLAIN_SCHEMA, RuleTools::explain),
                            tool(mapper, "create_probe_run", "Start a local HTTP fixture on 127.0.0.1 that answers GETs "
                                    + "with 429/503 and Retry-After, then 200; returns its URL and a run id.",
                                    ProbeTools.createSchema(), probe::create),
                            tool(mapper, "read_probe_trace", "The GETs a probe run has seen so far, as the server "
                                    + "observed them (retry-trace format).", ProbeTools.RUN_SCHEMA, probe::read),
                            tool(mapper, "finish_probe_run", "Stop a probe run and audit what it saw: did the client "
                                    + "honour Retry-After?", ProbeTools.finishSchema(), probe::finish))
                    .build();
            closed.await();
            // The session is over either way; a close that does not finish in time keeps no one waiting.
            Thread closer = new Thread(server::closeGracefully, "mcp-close");
            closer.setDaemon(true);
            closer.start();
            closer.join(OPEN_WAIT.toMillis());
        } finally {
            sweeper.shutdownNow();
        }
        return 0;
    }

    /** A tool's handler: its arguments in, its result out, or a {@link ToolError}. */
    @FunctionalInterface
    interface Handler {
        AuditTool.Result call(Map<String, Object> arguments) throws ToolError;
    }

    private static SyncToolSpecification tool(McpJsonMapper mapper, String name, String description, String schema,
            Handler handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description)
                .inputSchema(mapper, schema).build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            try {
                AuditTool.Result r = handler.call(request.arguments());
                return CallToolResult.builder().addTextContent(r.text()).structuredContent(r.structured()).isError(false)
                        .build();
            } catch (ToolError e) {
                return error(e.getMessage());
            } catch (RuntimeException e) {
                return error("internal error in " + name + ": " + Escaping.controls(String.valueOf(e))
                        + "; please report it");
            }
        }).build();
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }
}
