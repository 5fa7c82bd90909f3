package dev.retryaudit.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line in-process with captured stdout and stderr, as the tests' one way to call the CLI. */
public final class CliRunner {
    private CliRunner() {
    }

    /** What one run printed and returned. */
    public record Result(int exit, String out, String err) {
    }

    public static Result run(String... args) {
        return run(new ByteArrayInputStream(new byte[0]), args);
    }

    public static Result runWithStdin(String stdin, String... args) {
        return run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
    }

    public static Result run(InputStream stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, stdin, out, err);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
