package dev.retryaudit.cli;

import dev.retryaudit.mcp.RetryAuditMcp;
import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code retry-audit mcp}: serves the audit, the rules and the probe to an MCP client over stdio. The MCP SDK is
 * loaded only here (through {@link RetryAuditMcp}), so the other commands start as fast as without it.
 */
@Command(addMethodSubcommands = false, name = "mcp", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Serve retry-audit to an MCP client (Model Context Protocol, stdio transport): tools audit_trace, "
                + "list_rules, explain_rule, create_probe_run, read_probe_trace, finish_probe_run.",
            "stdin and stdout carry the protocol; the server ends when the client closes stdin. It reads no file "
                + "outside the --allow-dir directories, and probe servers listen on 127.0.0.1 only."},
        footerHeading = "%nClient configuration:%n",
        footer = "  {\"mcpServers\": {\"retry-audit\": {\"command\": \"java\", "
                + "\"args\": [\"-jar\", \"/path/to/retry-audit.jar\", \"mcp\", \"--allow-dir\", \"/path/to/traces\"]}}}")
final class McpCommand implements Callable<Integer> {
    private final Streams io;

    @Spec
    CommandSpec spec;

    @Option(names = "--allow-dir", paramLabel = "DIR",
            description = "A directory whose files audit_trace may read (path); repeatable. Without one, traces "
                    + "can only be given inline.")
    List<Path> allowDirs = new ArrayList<>();

    @Option(names = "--max-runs", paramLabel = "N", defaultValue = "4",
            description = "Most probe runs open at once, 1..32 (default: ${DEFAULT-VALUE}).")
    int maxRuns;

    @Option(names = "--run-ttl", paramLabel = "SECONDS", defaultValue = "600",
            description = "A probe run stops and is forgotten this long after it was created, 10..86400 "
                    + "(default: ${DEFAULT-VALUE}).")
    long runTtl;

    @Option(names = "--read-timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "Most time one audit_trace call may spend reading its file (path), 1..86400; a call "
                    + "still reading then fails (default: ${DEFAULT-VALUE}).")
    long readTimeout;

    McpCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws InterruptedException {
        range("--max-runs", maxRuns, 1, 32);
        range("--run-ttl", runTtl, 10, 86_400);
        range("--read-timeout", readTimeout, 1, 86_400);
        List<Path> dirs = new ArrayList<>();
        for (Path d : allowDirs) {
            try {
                if (!Files.isDirectory(d)) {
                    throw new IOException("not a directory");
                }
                dirs.add(d.toRealPath());
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "invalid value for option '--allow-dir': "
                        + Escaping.controls(d.toString()) + " is not a directory");
            }
        }
        return RetryAuditMcp.serve(new RetryAuditMcp.Settings(VersionInfo.NAME, VersionInfo.version(),
                dirs, maxRuns, Duration.ofSeconds(runTtl), Duration.ofSeconds(readTimeout)),
                io.stdin(), io.stdout(), io.err());
    }

    private void range(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw new CommandLine.ParameterException(spec.commandLine(), "invalid value for option '" + option
                    + "': must be between " + min + " and " + max);
        }
    }
}
