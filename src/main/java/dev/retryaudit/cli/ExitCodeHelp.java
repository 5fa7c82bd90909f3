package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import java.util.LinkedHashMap;
import java.util.Map;

/** The list shown under "Exit codes:" in every command's help, generated from {@link ExitCode}. */
final class ExitCodeHelp {
    private ExitCodeHelp() {
    }

    /** One row per code: the code right-aligned in three columns, then what it means. */
    static Map<String, String> list() {
        Map<String, String> list = new LinkedHashMap<>();
        for (ExitCode e : ExitCode.values()) {
            String code = Integer.toString(e.code());
            list.put(" ".repeat(Math.max(0, 3 - code.length())) + code, e.meaning());
        }
        return list;
    }
}
