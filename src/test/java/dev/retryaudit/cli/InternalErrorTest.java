package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** A bug surfaces as exit 70 with one line on stderr; the stack trace only with --debug. */
class InternalErrorTest {
    @Command(name = "boom")
    static final class Boom implements Callable<Integer> {
        @Option(names = "--debug")
        boolean debug;

        @Override
        public Integer call() {
            throw new IllegalStateException("invariant broken");
        }
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Streams io = new Streams(new ByteArrayInputStream(new byte[0]), out,
                new PrintWriter(out, true, StandardCharsets.UTF_8), new PrintWriter(err, true, StandardCharsets.UTF_8));
        CommandLine cl = Main.commandLine(io);
        cl.addSubcommand(new Boom());
        cl.setErr(io.err());
        int exit = cl.execute(args);
        return new String[] {Integer.toString(exit), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void internalErrorExits70WithoutStackTrace() {
        String[] r = run("boom");
        assertThat(r[0]).isEqualTo("70");
        assertThat(r[1]).isEqualTo("retry-audit: internal error: IllegalStateException: invariant broken; "
                + "this is a bug, please report it (--debug shows the stack trace)\n");
    }

    @Test
    void debugShowsTheStackTrace() {
        String[] r = run("boom", "--debug");
        assertThat(r[0]).isEqualTo("70");
        assertThat(r[1]).contains("at dev.retryaudit.cli.InternalErrorTest$Boom.call");
    }

    @Test
    void runningOutOfMemoryOutsideReadingIsOneLineAndExit65() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintWriter w = new PrintWriter(err, true, StandardCharsets.UTF_8);
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        assertThat(Failures.outOfMemory(w, oom, new String[] {"audit", "x.json"})).isEqualTo(65);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("retry-audit: error: out of memory: the Java heap is "
                + "too small for this input; give Java more heap (java -Xmx4g -jar retry-audit.jar ...), lower "
                + "--limit-bytes, or split the input\n");
        err.reset();
        Failures.outOfMemory(w, oom, new String[] {"audit", "--debug", "x.json"});
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("java.lang.OutOfMemoryError: Java heap space", "\tat ");
    }
}
