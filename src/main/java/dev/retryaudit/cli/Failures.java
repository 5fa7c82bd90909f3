package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limit;
import dev.retryaudit.text.Escaping;
import java.io.PrintWriter;
import picocli.CommandLine;

/** The two failure paths of the command line: bad usage (exit 64) and a bug (exit 70, stack trace only with --debug). */
final class Failures {
    private Failures() {
    }

    static int usage(CommandLine.ParameterException ex, String[] args) {
        PrintWriter err = ex.getCommandLine().getErr();
        err.println(VersionInfo.NAME + ": error: " + Escaping.controls(firstLine(message(ex))));
        err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'");
        return ExitCode.USAGE.code();
    }

    /** The usage error's message; a value a {@link Choice} refused is named as every other bad value is. */
    private static String message(CommandLine.ParameterException ex) {
        if (ex.getCause() instanceof CommandLine.TypeConversionException bad
                && ex.getArgSpec() instanceof CommandLine.Model.OptionSpec option
                && java.util.Arrays.stream(option.converters()).anyMatch(c -> c instanceof Choice)) {
            return "invalid value for option '" + option.longestName() + "': " + bad.getMessage();
        }
        return ex.getMessage();
    }

    static int internal(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        err.println(VersionInfo.NAME + ": internal error: " + ex.getClass().getSimpleName()
                + (ex.getMessage() == null ? "" : ": " + Escaping.controls(firstLine(ex.getMessage())))
                + "; this is a bug, please report it" + (debug(parsed) ? "" : " (--debug shows the stack trace)"));
        if (debug(parsed)) {
            writeTrace(err, ex);
        }
        return ExitCode.SOFTWARE.code();
    }

    /**
     * The heap ran out outside the reading of an input (where it is an input error): one line, exit 65
     * like an input over a limit, the stack trace only with --debug.
     */
    static int outOfMemory(PrintWriter err, OutOfMemoryError ex, String[] args) {
        err.println(VersionInfo.NAME + ": error: out of memory: the Java heap is too small for this input; "
                + RetryAuditException.commandLineHint(Limit.MEMORY));
        if (java.util.Arrays.asList(args).contains("--debug")) {
            writeTrace(err, ex);
        }
        return ExitCode.DATA.code();
    }

    /** The stack trace with its causes, on picocli's error writer (--debug only). */
    private static void writeTrace(PrintWriter err, Throwable ex) {
        String prefix = "";
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            err.println(prefix + t);
            for (StackTraceElement e : t.getStackTrace()) {
                err.println("\tat " + e);
            }
            prefix = "Caused by: ";
        }
    }

    private static boolean debug(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
