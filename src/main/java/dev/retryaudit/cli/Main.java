package dev.retryaudit.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** The entry point: builds the command line over the given streams and returns the exit code. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, new FileOutputStream(FileDescriptor.out), new FileOutputStream(FileDescriptor.err)));
    }

    /** Runs one command; every byte the tool prints goes to {@code stdout} or {@code stderr}. */
    public static int run(String[] args, InputStream stdin, OutputStream stdout, OutputStream stderr) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true);
        Streams io = new Streams(stdin, stdout, out, err);
        CommandLine cl = commandLine(io);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The command tree with its handlers; every command and subcommand lists the exit codes in its help. */
    static CommandLine commandLine(Streams io) {
        CommandLine cl = new CommandLine(new RetryAuditCommand(io));
        cl.addSubcommand(new AuditCommand(io));
        cl.addSubcommand(new RulesCommand(io));
        cl.addSubcommand(new ExplainCommand(io));
        cl.addSubcommand(new SchemaCommand(io));
        cl.addSubcommand(ProbeCommand.commandLine(io));
        cl.addSubcommand(new McpCommand(io));
        cl.setOut(io.out());
        cl.setErr(io.err());
        cl.setCaseInsensitiveEnumValuesAllowed(false);
        cl.setParameterExceptionHandler(Failures::usage);
        cl.setExecutionExceptionHandler(Failures::internal);
        for (CommandLine c : cl.getSubcommands().values()) {
            c.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCode.helpList());
        }
        cl.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCode.helpList());
        return cl;
    }
}
