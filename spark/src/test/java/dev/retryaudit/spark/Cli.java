package dev.retryaudit.spark;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.spi.ToolProvider;

/** The command line of the root project, in-process. */
final class Cli {
    record Run(int exit, String out, String err) {
    }

    private Cli() {
    }

    static Run run(String... args) {
        ToolProvider tool = ToolProvider.findFirst("retry-audit").orElseThrow();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = tool.run(o, e, args);
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
