package dev.retryaudit.cli;

import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.text.Wire;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine;

/**
 * A typed picocli option over an enum named by its wire ids ({@code retry-trace}, {@code http-date}):
 * the converter and the completion candidates that help lists. A value that names no constant is a
 * usage error, "invalid value for option '--x': expected one of ..." (see {@link Failures#usage}).
 *
 * @param <E> the enum
 */
abstract class Choice<E extends Enum<E>> implements CommandLine.ITypeConverter<E>, Iterable<String> {
    private final Class<E> type;
    private final List<String> ids;

    Choice(Class<E> type, List<String> ids) {
        this.type = type;
        this.ids = ids;
    }

    @Override
    public E convert(String value) {
        E e = ids.contains(value) ? Wire.parse(type, value, '-') : null;
        if (e == null) {
            throw new CommandLine.TypeConversionException("expected one of " + String.join(", ", ids));
        }
        return e;
    }

    @Override
    public Iterator<String> iterator() {
        return ids.iterator();
    }

    /** The --color values. */
    static final class ColorModes extends Choice<ColorMode> {
        ColorModes() {
            super(ColorMode.class, ColorMode.ids());
        }
    }

    /** The --header-format values. */
    static final class HeaderFormats extends Choice<HeaderFormat> {
        HeaderFormats() {
            super(HeaderFormat.class, HeaderFormat.ids());
        }
    }

    /** The --scorecard values. */
    static final class ScorecardFormats extends Choice<dev.retryaudit.probe.suite.ScorecardFormat> {
        ScorecardFormats() {
            super(dev.retryaudit.probe.suite.ScorecardFormat.class, dev.retryaudit.probe.suite.ScorecardFormat.ids());
        }
    }
}
