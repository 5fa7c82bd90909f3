package dev.retryaudit.cli;

import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * The rows of the settings table ({@link Setting}) as a command's options, made with picocli's programmatic
 * API and placed where the command's help lists them, and the values given for them read back into an
 * {@link AuditSettings.Builder}; a bad value is a usage error (exit 64) that names the option.
 */
final class SettingOptions {
    private SettingOptions() {
    }

    /** Adds {@code rows} to {@code spec} as options, listed in help just before the option {@code next}. */
    static void before(CommandSpec spec, String next, Setting... rows) {
        insert(spec, next, 0, rows);
    }

    /** Adds {@code rows} to {@code spec} as options, listed in help just after the option {@code previous}. */
    static void after(CommandSpec spec, String previous, Setting... rows) {
        insert(spec, previous, 1, rows);
    }

    /** The option of {@code row}: its label, its description, its choices for completion, repeatable when it adds names. */
    static OptionSpec option(Setting row) {
        OptionSpec.Builder o = OptionSpec.builder(row.option()).paramLabel(row.label()).description(row.description())
                .userObject(row);
        if (row.repeatable()) {
            return o.type(List.class).auxiliaryTypes(String.class).build();
        }
        return o.type(String.class).completionCandidates(row.choices().isEmpty() ? null : row.choices()).build();
    }

    /**
     * Applies to {@code b}, in the table's order, every value given on the command line for a row that
     * {@code spec} offers and {@code keep} keeps; a bad value is a usage error of {@code spec}'s command.
     */
    static AuditSettings.Builder apply(CommandSpec spec, AuditSettings.Builder b, BiPredicate<Setting, String> keep) {
        for (Setting row : Setting.values()) {
            for (String value : given(spec, row)) {
                if (keep.test(row, value)) {
                    try {
                        row.apply(b, value);
                    } catch (IllegalArgumentException e) {
                        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
                    }
                }
            }
        }
        return b;
    }

    /** The values given for {@code row} on {@code spec}'s command line, in order; none when it is not offered or not given. */
    static List<String> given(CommandSpec spec, Setting row) {
        OptionSpec o = spec.findOption(row.option());
        if (o == null || o.userObject() != row || !spec.commandLine().getParseResult().hasMatchedOption(o)) {
            return List.of();
        }
        return o.stringValues();
    }

    private static void insert(CommandSpec spec, String anchor, int offset, Setting... rows) {
        List<OptionSpec> all = spec.options();
        int at = all.indexOf(spec.findOption(anchor));
        if (at < 0) {
            throw new IllegalArgumentException("no option " + anchor);
        }
        List<OptionSpec> moved = new ArrayList<>(all.subList(at + offset, all.size()));
        moved.forEach(spec::remove);
        for (Setting row : rows) {
            spec.addOption(option(row));
        }
        moved.forEach(spec::addOption);
    }
}
