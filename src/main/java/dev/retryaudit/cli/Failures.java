package dev.retryaudit.cli;

import dev.retryaudit.text.Escaping;
import java.io.PrintWriter;
import picocli.CommandLine;

/** The two failure paths of the command line: bad usage (exit 64) and a bug (exit 70, stack trace only with --debug). */
final class Failures {
    private Failures() {
    }

    static int usage(CommandLine.ParameterException ex, String[] args) {
        PrintWriter err = ex.getCommandLine().getErr();
        err.println(VersionInfo.NAME + ": error: " + Escaping.controls(firstLine(ex.getMessage())));
        err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'");
        return ExitCode.USAGE.code();
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
