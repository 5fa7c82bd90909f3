package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The colour decision as a pure function of the mode, whether stdout is a terminal, and the environment. */
class ColorModeTest {
    private static final Map<String, String> PLAIN = Map.of("TERM", "xterm");
    private static final Map<String, String> NO_COLOR = Map.of("NO_COLOR", "1");

    @Test
    void autoColoursOnlyATerminalWithoutNoColor() {
        assertThat(ColorMode.AUTO.enabled(true, PLAIN)).isTrue();
        assertThat(ColorMode.AUTO.enabled(false, PLAIN)).isFalse();
        assertThat(ColorMode.AUTO.enabled(true, NO_COLOR)).isFalse();
        assertThat(ColorMode.AUTO.enabled(false, NO_COLOR)).isFalse();
    }

    @Test
    void anEmptyNoColorDoesNotCount() {
        assertThat(ColorMode.AUTO.enabled(true, Map.of("NO_COLOR", ""))).isTrue();
    }

    @Test
    void alwaysAndNeverIgnoreTheTerminalAndTheEnvironment() {
        for (boolean terminal : new boolean[] {true, false}) {
            for (Map<String, String> env : java.util.List.of(PLAIN, NO_COLOR)) {
                assertThat(ColorMode.ALWAYS.enabled(terminal, env)).isTrue();
                assertThat(ColorMode.NEVER.enabled(terminal, env)).isFalse();
            }
        }
    }

    @Test
    void parsesItsWireNames() {
        assertThat(ColorMode.ids()).containsExactly("auto", "always", "never");
        assertThat(ColorMode.parse("always")).isEqualTo(ColorMode.ALWAYS);
        assertThat(ColorMode.parse("ALWAYS")).isNull();
    }
}
