package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** The top-level command: shows help when called without a subcommand. */
@Command(addMethodSubcommands = false, name = VersionInfo.NAME, mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Audits exported traces of tool calls and HTTP attempts for unsafe retries: "
                + "double writes after timeouts, retries before Retry-After, repeated invalid calls, retries beyond budget.")
final class RetryAuditCommand implements Callable<Integer> {
    private final Streams io;

    RetryAuditCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        io.err().println(VersionInfo.NAME + ": error: missing command");
        io.err().println("Try '" + VersionInfo.NAME + " --help'");
        return ExitCode.USAGE.code();
    }
}
